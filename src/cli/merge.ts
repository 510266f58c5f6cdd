/** durasim merge: the summaries of CI shard jobs folded into one verdict (the worst exit code wins). */
import { readFileSync } from 'node:fs';
import { DurasimError } from '../failure.js';

interface ShardSummary {
  journal: string;
  seed?: number;
  runsExecuted: number;
  elapsedMs: number;
  verdict: string;
  exitCode: number;
  violations: { code: string }[];
  replayCommand?: string;
  shard?: { index: number; count: number };
}

const SEVERITY = [0, 3, 1, 4];

export function mergeSummaries(files: readonly string[]): { merged: Record<string, unknown>; exitCode: number } {
  if (files.length === 0) throw new DurasimError('merge summaries', 'no summary.json was given', 'Pass the summary.json of every shard');
  const summaries = files.map((file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ShardSummary;
    } catch (error) {
      throw new DurasimError('merge summaries', `${file} is not a readable summary.json (${error instanceof Error ? error.message : String(error)})`, 'Pass the summary.json files that durasim check wrote');
    }
  });
  const exitCode = summaries.map((s) => s.exitCode).reduce((worst, code) => (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst) ? code : worst), 0);
  const merged = {
    journals: [...new Set(summaries.map((s) => s.journal))],
    seeds: [...new Set(summaries.map((s) => s.seed))],
    shards: summaries.map((s) => (s.shard ? `${s.shard.index}/${s.shard.count}` : 'whole')),
    runsExecuted: summaries.reduce((n, s) => n + s.runsExecuted, 0),
    elapsedMs: Math.max(...summaries.map((s) => s.elapsedMs)),
    exitCode,
    verdicts: summaries.map((s) => s.verdict),
    violations: summaries.flatMap((s) => s.violations.map((v) => v.code)),
    replayCommands: summaries.flatMap((s) => (s.replayCommand ? [s.replayCommand] : [])),
  };
  return { merged, exitCode };
}
