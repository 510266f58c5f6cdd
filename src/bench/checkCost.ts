/**
 * What `durasim check` costs as users run it: the command run as a child process, from the
 * sources (bin/durasim.mjs in a clone) or from the package (dist/), with its defaults (every fault
 * family, its determinism and fresh-module re-runs, the stored regressions) but the single-fault
 * sweep (--no-sweep: its cost is explore's depth 1, measured apart) and the real restart of a clean check
 * (--no-real-restart: real processes after the runs), read off the report it
 * writes (summary.json: cost and work) and off /proc (CPU per thread).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../ownFiles.js';
import { threadCpuOf, type ThreadCpu } from './threadCpu.js';

export type CheckFrom = 'sources' | 'package';

export interface CheckRun {
  from: CheckFrom;
  runs: number;
  workers: number;
  exitCode: number;
  /** Runs that came back (the budget and a few regressions). */
  runsExecuted: number;
  traceEntries: number;
  cpuMs: number;
  cpuMsBeforeFirstRun: number;
  /** Wall time of the runs alone (summary.json's elapsedMs), and of the whole command. */
  runsWallMs: number;
  wallMs: number;
  threads: ThreadCpu;
}

/** The command for `from`: the clone's bin (the sources' module graph) or the package's compiled bin. */
export function checkCommand(from: CheckFrom): string[] {
  return [join(PACKAGE_ROOT, from === 'sources' ? 'bin/durasim.mjs' : 'dist/src/bin/durasim.mjs'), 'check'];
}

export async function checkRun(from: CheckFrom, runs: number, workers: number, seed: number): Promise<CheckRun> {
  const dir = mkdtempSync(join(tmpdir(), 'durasim-bench-check-'));
  try {
    // The stored regressions are replayed as a user's check replays them, from a copy: a finding must not land in the repository's.
    cpSync(join(PACKAGE_ROOT, 'reports/regressions'), join(dir, 'regressions'), { recursive: true });
    // The drawn runs' path is what this measures (per scenario, per trace entry, the fixed cost before the first run); the single-fault sweep's cost is explore's depth 1, measured apart (exploreDepth1),
    // and a clean check's real restart (real processes, after the runs: none of the runs' CPU) is the kind of cost the bench's real-process row measures.
    const args = [...checkCommand(from), '--no-sweep', '--no-real-restart', '--runs', String(runs), '--workers', String(workers), '--seed', String(seed), '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'];
    const child = spawn(process.execPath, args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
    const threads = await threadCpuOf(child.pid as number, workers, exited);
    const exitCode = await exited;
    let summary: { runsExecuted: number; elapsedMs: number; work?: { traceEntries: number }; cost?: { cpuMs: number; cpuMsBeforeFirstRun?: number; wallMs: number } };
    try {
      summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as typeof summary;
    } catch {
      throw new Error(`durasim check (${from}) wrote no summary (exit ${exitCode}): ${stderr.slice(0, 2000)}`);
    }
    if (!summary.cost || !summary.work) throw new Error(`durasim check (${from}) reported no cost or work`);
    return {
      from,
      runs,
      workers,
      exitCode,
      runsExecuted: summary.runsExecuted,
      traceEntries: summary.work.traceEntries,
      cpuMs: summary.cost.cpuMs,
      cpuMsBeforeFirstRun: summary.cost.cpuMsBeforeFirstRun ?? summary.cost.cpuMs,
      runsWallMs: summary.elapsedMs,
      wallMs: summary.cost.wallMs,
      threads,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU per scenario and per trace entry past the first `short` runs: two runs of the command, one longer, subtracted. */
export function marginal(short: CheckRun, long: CheckRun): { cpuMsPerScenario: number; cpuUsPerEntry: number; entriesPerScenario: number } {
  const runs = long.runsExecuted - short.runsExecuted;
  const entries = long.traceEntries - short.traceEntries;
  const cpu = long.cpuMs - short.cpuMs;
  return { cpuMsPerScenario: cpu / runs, cpuUsPerEntry: (cpu * 1000) / entries, entriesPerScenario: entries / runs };
}
