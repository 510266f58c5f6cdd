/** durasim merge: the summaries of CI shard jobs folded into one verdict (the worst exit code wins). */
import { DurasimError } from '../../model/contract/failure.js';
import { JsonTextError, parseJsonText } from '../../simulator/scenario/jsonText.js';
import { readInputFile } from '../readInputFile.js';

/** The most bytes a summary.json may take (a check's is a few kB; a --tally of every window, well under a MB). */
const SUMMARY_BYTES = 64 * 1024 * 1024;

interface ShardSummary {
  journal: string;
  seed?: number;
  runsExecuted: number;
  elapsedMs: number;
  verdict: string;
  exitCode: number;
  violations: { code: string }[];
  replayCommand?: string;
  tally?: Record<string, number>;
  /** --tally: one counterexample per invariant, each with its replay command. */
  counterexamples?: { replayCommand?: unknown }[];
  shard?: { index: number; count: number };
  interrupted?: { afterRuns?: unknown; ofRuns?: unknown; signal?: unknown };
  coverage?: { windows?: unknown; aimedRuns?: unknown; aimedHits?: unknown };
  /** The single-fault sweep of this shard's share of the crash points. */
  sweep?: { states?: unknown; runs?: unknown; points?: { explored?: unknown; of?: unknown }; complete?: unknown; pairs?: { total?: unknown; kept?: unknown; tried?: unknown; runs?: unknown } };
}

/**
 * Worst last: a harness failure outranks everything, then a sandbox escape, a safety violation,
 * liveness, then a shard a signal stopped (SIGINT 130, SIGTERM 143: its runs incomplete, so never
 * clean, but what another shard found comes first).
 */
const SEVERITY = [0, 143, 130, 3, 1, 4, 5];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problem with a parsed summary.json, or undefined when it has what merge reads. */
function summaryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object';
  if (typeof value.journal !== 'string') return 'it has no "journal" name';
  if (typeof value.runsExecuted !== 'number' || typeof value.elapsedMs !== 'number') return 'it has no "runsExecuted" or "elapsedMs" count';
  if (typeof value.exitCode !== 'number' || !SEVERITY.includes(value.exitCode)) return `its "exitCode" is ${JSON.stringify(value.exitCode)}, not one of ${SEVERITY.join(', ')}`;
  if (typeof value.verdict !== 'string') return 'it has no "verdict"';
  if (!Array.isArray(value.violations) || !value.violations.every((v) => isObject(v) && typeof v.code === 'string')) return 'its "violations" is not a list of { code }';
  return undefined;
}

export function mergeSummaries(files: readonly string[]): { merged: Record<string, unknown>; exitCode: number } {
  if (files.length === 0) throw new DurasimError('merge summaries', 'no summary.json was given', 'Pass the summary.json of every shard');
  const summaries = files.map((file) => {
    const fix = 'Pass the summary.json files that durasim check wrote';
    const text = readInputFile(file, { action: 'merge summaries', fix, limitBytes: SUMMARY_BYTES, tooLarge: (size) => new DurasimError('merge summaries', `${file} is ${size}, over the limit of ${SUMMARY_BYTES} for a summary.json`, fix) });
    let value: unknown;
    try {
      value = parseJsonText(text);
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error;
      throw new DurasimError('merge summaries', `${file} is not a readable summary.json (${error.syntax ?? `it ${error.message}`})`, fix);
    }
    const problem = summaryProblem(value);
    if (problem !== undefined) throw new DurasimError('merge summaries', `${file} is not a durasim summary: ${problem}`, 'Pass the summary.json files that durasim check wrote');
    return value as ShardSummary;
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
    replayCommands: replayCommandsOf(summaries),
    ...(summaries.some((s) => s.interrupted) ? { interrupted: summaries.flatMap((s) => (s.interrupted ? [s.shard ? `${s.shard.index}/${s.shard.count}` : 'whole'] : [])) } : {}),
    ...(summaries.some((s) => s.tally) ? { tally: sumTallies(summaries.map((s) => s.tally ?? {})) } : {}),
    ...(summaries.some((s) => s.coverage) ? { coverage: unionOfCoverage(summaries.map((s) => s.coverage ?? {})) } : {}),
    ...(summaries.some((s) => s.sweep) ? { sweep: sweepOfShards(summaries) } : {}),
  };
  return { merged, exitCode };
}

/**
 * Every distinct replay command of the shards, first seen first: two shards' counterexamples can
 * shrink to the same scenario (one regression file), and a tally's first counterexample is also its
 * summary's replayCommand.
 */
function replayCommandsOf(summaries: readonly ShardSummary[]): string[] {
  const commands = new Set<string>();
  for (const s of summaries) {
    if (typeof s.replayCommand === 'string') commands.add(s.replayCommand);
    if (Array.isArray(s.counterexamples)) for (const c of s.counterexamples) if (isObject(c) && typeof c.replayCommand === 'string') commands.add(c.replayCommand);
  }
  return [...commands];
}

/** The fault windows the shards hit, together (each shard's runs are its own), and their aimed runs summed. */
function unionOfCoverage(coverages: readonly NonNullable<ShardSummary['coverage']>[]): { windows: string[]; aimedRuns: number; aimedHits: number } {
  const windows = new Set<string>();
  let aimedRuns = 0;
  let aimedHits = 0;
  for (const c of coverages) {
    if (Array.isArray(c.windows)) for (const w of c.windows) if (typeof w === 'string') windows.add(w);
    if (typeof c.aimedRuns === 'number') aimedRuns += c.aimedRuns;
    if (typeof c.aimedHits === 'number') aimedHits += c.aimedHits;
  }
  return { windows: [...windows].sort(), aimedRuns, aimedHits };
}

/**
 * The shards' single-fault sweeps together: each swept its own share of the crash points (every
 * n-th step), so states, runs and points add up. Complete only when every shard's sweep was and
 * every shard of the split is here (a shard without a sweep, or one missing, leaves its share unswept).
 */
function sweepOfShards(summaries: readonly ShardSummary[]): { states: number; runs: number; points: { explored: number; of: number }; complete: boolean; pairs?: { total: number; kept: number; tried: number; runs: number } } {
  const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
  const swept = summaries.filter((s) => s.sweep);
  const count = summaries[0]?.shard?.count ?? 1;
  const shardsHere = new Set(summaries.map((s) => (s.shard ? s.shard.index : 0)));
  const everyShard = summaries.every((s) => s.shard?.count === count) ? shardsHere.size === count : summaries.length === 1;
  return {
    states: swept.reduce((n, s) => n + num(s.sweep?.states), 0),
    runs: swept.reduce((n, s) => n + num(s.sweep?.runs), 0),
    points: { explored: swept.reduce((n, s) => n + num(s.sweep?.points?.explored), 0), of: swept.reduce((n, s) => n + num(s.sweep?.points?.of), 0) },
    complete: swept.length === summaries.length && everyShard && swept.every((s) => s.sweep?.complete === true),
    // Each shard's two-fault pairs are those of its own share of the sweep's states: they add up too.
    ...(swept.some((s) => s.sweep?.pairs)
      ? { pairs: { total: swept.reduce((n, s) => n + num(s.sweep?.pairs?.total), 0), kept: swept.reduce((n, s) => n + num(s.sweep?.pairs?.kept), 0), tried: swept.reduce((n, s) => n + num(s.sweep?.pairs?.tried), 0), runs: swept.reduce((n, s) => n + num(s.sweep?.pairs?.runs), 0) } }
      : {}),
  };
}

/** Failing runs per invariant over the shards (--tally). */
function sumTallies(tallies: readonly Record<string, number>[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const tally of tallies) for (const [code, runs] of Object.entries(tally)) if (typeof runs === 'number') sum[code] = (sum[code] ?? 0) + runs;
  return sum;
}

/** The merged verdict as a person reads it: shards, runs, the worst exit and what broke; then each distinct replay command, once, a line each. */
export function mergedLine(merged: Record<string, unknown>): string {
  const shards = merged.shards as string[];
  const verdicts = merged.verdicts as string[];
  const broke = [...new Set(merged.violations as string[])];
  const worst = merged.exitCode as number;
  const coverage = merged.coverage as { windows: string[] } | undefined;
  const interrupted = merged.interrupted as string[] | undefined;
  const sweep = merged.sweep as ReturnType<typeof sweepOfShards> | undefined;
  const sweepText = sweep ? `, single-fault sweep: ${sweep.states} states at ${sweep.points.explored} of ${sweep.points.of} crash points${sweep.complete ? ', complete' : ', not complete'}${sweep.pairs ? `, two-fault pairs: ${sweep.pairs.tried} of ${sweep.pairs.kept} kept tried in ${sweep.pairs.runs} runs` : ''}` : '';
  return `merged ${shards.length} summar${shards.length === 1 ? 'y' : 'ies'} (${(merged.journals as string[]).join(', ')}; seed ${(merged.seeds as unknown[]).join(', ')}): ${merged.runsExecuted as number} runs${sweepText}${coverage ? `, ${coverage.windows.length} fault windows hit` : ''}, exit ${worst} (${verdicts.join(', ')})${interrupted ? `, interrupted: ${interrupted.join(', ')}` : ''}${broke.length > 0 ? `: ${broke.join(', ')}` : ''}${(merged.replayCommands as string[]).map((command) => `\n  replay: ${command}`).join('')}`;
}
