/**
 * npm run bench: what durasim costs as users run it, against the journal's own work, in one run
 * (the machine is shared and noisy: compare what one run measured), on the Node it runs on. Prints
 * a table headed by that Node and writes its row, keyed by the Node line, into reports/bench.json
 * (the other lines' rows kept: benchRows.ts). Usage: npm run bench [-- [--short] [--quick]] [--runs N]
 * [--memory-runs N] [--real N] [--no-package] [--out FILE]
 *
 * - --short (CI's row on each Node line, about a minute): the floor, check from the sources (1,000
 *   and 3,000 runs, one worker and two) and a worker's boot and warm-up; written to
 *   reports/out/bench.json unless --out says. --quick: tiny counts of everything (the smoke test);
 *   with --short, tiny counts of --short's sections.
 *
 * - The journal floor: the reference journal's fault-free standard task on a Map and plain
 *   objects (journalFloor.ts), CPU per run and per journal call.
 * - check as users run it (checkCost.ts): the command as a child process, its defaults, from the
 *   sources and from the package (built here first; not with --quick or --no-package): CPU per scenario and per trace entry past
 *   the first runs (two budgets subtracted), the same at the default budget, the fixed cost before
 *   the first scenario, one worker against two, and CPU per thread.
 * - The ratio that matters: check's CPU per trace entry over the floor's per call.
 * - What the machine gives two threads: the floor in two worker threads against one
 *   (floorScaling.ts), the cap on check's two-workers ratio that day.
 * - Then what it always measured: fresh modules against shared, a Node-API journal against env,
 *   the exhaustive crash sweep, runs to detection of every mutant, memory over many scenarios, and
 *   the real-process baseline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileDurably, makeDirDurably } from '../durableFile.js';
import { baseScenario, featuredScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { MUTANTS, mutantArbitrary } from '../journals/mutants/index.js';
import { MUTANT_BUDGET, mutantSeed } from '../mutantsMain.js';
import { huntJournal } from '../mutation.js';
import { bundledJournal } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { PACKAGE_ROOT } from '../ownFiles.js';
import { exploreCrashes } from '../runner/crashExplorer.js';
import { ambientCost } from './ambientCost.js';
import { checkRun, marginal, type CheckFrom, type CheckRun } from './checkCost.js';
import { isolationCost } from './isolationCost.js';
import { floorScaling } from './floorScaling.js';
import { journalFloor } from './journalFloor.js';
import { heapGrowth } from './memory.js';
import { realScenario } from './realProcess.js';
import { sqliteCost } from './sqliteCost.js';
import { withRow, nodeLine } from './benchRows.js';
import { workerWarmth } from './workerWarmth.js';

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  const value = at === -1 ? fallback : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const fixed = (n: number, digits: number): string => n.toFixed(digits);

/** Issue 50's targets: a check's fixed cost and a worker's warm-up in CPU, and two workers' scaling as a share of the plain code's. */
export const FIXED_COST_TARGET_MS = 500;
export const WARM_UP_TARGET_MS = 500;
export const SCALING_SHARE = 0.9;
const seconds = (thread: number): string => `${thread.toFixed(1)} s`;

/** check from one place: the default budget and a longer one (one worker), the longer one on two workers. */
async function checkFrom(from: CheckFrom, shortRuns: number, longRuns: number, seed: number): Promise<Record<string, unknown>> {
  const short = await checkRun(from, shortRuns, 1, seed);
  const long = await checkRun(from, longRuns, 1, seed);
  const two = await checkRun(from, longRuns, 2, seed);
  const perRun = marginal(short, long);
  const rate = (run: CheckRun): number => run.runsExecuted / (run.runsWallMs / 1000);
  return {
    from,
    short,
    long,
    two,
    marginal: perRun,
    atDefault: { cpuMsPerScenario: short.cpuMs / short.runsExecuted, cpuUsPerEntry: (short.cpuMs * 1000) / short.traceEntries },
    fixedCpuMs: Math.min(short.cpuMsBeforeFirstRun, long.cpuMsBeforeFirstRun),
    // What a fresh worker spends over its first runs beyond the steady rate (V8 compiling and warming the code up): every worker pays it.
    warmUpCpuMs: short.cpuMs - short.cpuMsBeforeFirstRun - short.runsExecuted * perRun.cpuMsPerScenario,
    // What two workers spend beyond one on the same runs: a second boot and warm-up, and two busy threads contending.
    twoWorkersExtraCpuMs: two.cpuMs - long.cpuMs,
    scaling: { oneWorkerPerSecond: rate(long), twoWorkersPerSecond: rate(two), ratio: rate(two) / rate(long) },
  };
}

export async function runBench(args: string[]): Promise<Record<string, unknown>> {
  // --short says which sections (CI's row), --quick how many of everything (tiny): the smoke test runs each mode with tiny counts.
  const quick = args.includes('--quick');
  const short = args.includes('--short');
  const mode = short ? 'short' : quick ? 'quick' : 'full';
  const shortRuns = flag(args, '--runs', quick ? 20 : 1000);
  const longRuns = quick ? shortRuns * 3 : short ? shortRuns * 3 : shortRuns * 5;
  const memoryRuns = flag(args, '--memory-runs', quick ? 200 : 20_000);
  const realRuns = flag(args, '--real', quick ? 1 : 5);
  const out = args.includes('--out') ? (args[args.indexOf('--out') + 1] as string) : mode === 'full' ? 'reports/bench.json' : 'reports/out/bench.json';
  const log = (line: string): void => console.log(line);
  const line = nodeLine(process.version);
  log(`durasim bench · Node ${process.version} (line ${line}) · ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}) · ${mode}`);

  const floor = await journalFloor({ runs: quick ? 200 : 3000, rounds: quick ? 1 : short ? 2 : 5 });
  log(`journal floor: ${fixed(floor.msPerRun, 3)} ms a run, ${floor.calls} calls (${floor.simulatedSteps} simulated steps), ${fixed(floor.usPerCall, 2)} µs a call`);
  if (floor.calls !== floor.simulatedSteps) throw new Error(`the floor served ${floor.calls} calls where the simulated task takes ${floor.simulatedSteps} steps: it no longer serves the same task`);

  const floorThreads = await floorScaling({ runs: quick ? 300 : 15_000, rounds: quick || short ? 1 : 3 });
  log(`journal floor in two threads vs one: ×${fixed(floorThreads.ratio, 2)} (${fixed(floorThreads.twoThreadsPerSecond, 0)} vs ${fixed(floorThreads.oneThreadPerSecond, 0)} runs/s): what this machine gives plain code`);

  // The package is measured as npm run build makes it, built afresh here (a dist/ left from older sources would measure them).
  const fromPackage = mode === 'full' && !args.includes('--no-package');
  if (fromPackage) {
    log('building the package (npm run build) to measure check from it');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
  }
  const froms: CheckFrom[] = ['sources', ...(fromPackage && existsSync(join(PACKAGE_ROOT, 'dist', 'graph.mjs')) ? (['package'] as const) : [])];
  const check: Record<string, Record<string, unknown>> = {};
  for (const from of froms) {
    const c = await checkFrom(from, shortRuns, longRuns, 7);
    check[from] = c;
    const m = c.marginal as ReturnType<typeof marginal>;
    const s = c.scaling as { ratio: number; oneWorkerPerSecond: number; twoWorkersPerSecond: number };
    log(`check from the ${from}: ${fixed(m.cpuMsPerScenario, 3)} ms CPU a scenario past the first ${shortRuns} (${fixed(m.cpuUsPerEntry, 1)} µs a trace entry, ${fixed(m.entriesPerScenario, 0)} entries); fixed cost ${fixed(c.fixedCpuMs as number, 0)} ms CPU; 2 workers ×${fixed(s.ratio, 2)} one (${fixed(s.twoWorkersPerSecond, 0)} vs ${fixed(s.oneWorkerPerSecond, 0)}/s)`);
  }
  const sources = check.sources as Record<string, unknown>;
  const perEntry = (sources.marginal as ReturnType<typeof marginal>).cpuUsPerEntry;
  const ratio = perEntry / floor.usPerCall;
  log(`check's CPU per trace entry over the floor's per call: ×${fixed(ratio, 2)}`);

  // A worker's boot and warm-up, on its own thread: the first worker, then a second booted after it.
  const warmRuns = quick ? 20 : shortRuns;
  const warmth = await workerWarmth({ warmRuns, steadyRuns: quick ? 20 : short ? shortRuns : shortRuns * 2, seed: 7 });
  const perWorker = (pick: (w: (typeof warmth.workers)[number]) => number): string => warmth.workers.map((w) => `${fixed(pick(w), 0)} ms`).join(', then ');
  log(`a pool worker, on its own thread: boot ${perWorker((w) => w.bootCpuMs)}; warm-up over its first ${warmRuns} runs ${perWorker((w) => w.warmUpCpuMs)} (steady ${fixed(warmth.steadyCpuMsPerRun, 3)} ms a run)`);
  const workerRows = [
    `| a pool worker's boot: CPU of its own thread until the reference journal is loaded (the first worker, then a second booted after it) | ${warmth.measured ? perWorker((w) => w.bootCpuMs) : 'not measured (no /proc)'} | — |`,
    `| a pool worker's warm-up: CPU of its thread over its first ${warmRuns} runs beyond its steady rate (${fixed(warmth.steadyCpuMsPerRun, 3)} ms a run; first worker, then second) | ${warmth.measured ? perWorker((w) => w.warmUpCpuMs) : 'not measured (no /proc)'} | ≤ ${WARM_UP_TARGET_MS} ms each |`,
  ];
  if (short) {
    const rows = checkRows(froms, check, shortRuns, longRuns, floorThreads.ratio);
    const table = [
      '| measure | value | target |',
      '|---|---|---|',
      `| the journal floor per call | ${fixed(floor.usPerCall, 2)} µs | — |`,
      ...rows,
      `| check's CPU per trace entry over the floor's per call (from the sources) | ×${fixed(ratio, 2)} | ≤ ×4 |`,
      ...workerRows,
    ].join('\n');
    log(`\n${table}`);
    const report = { node: process.version, line, cores: availableParallelism(), mode, quick, floor, floorThreads, check, ratio, workerWarmth: warmth };
    writeRow(out, report);
    log(`wrote ${out} (row ${line})`);
    return report;
  }

  const isolation = await isolationCost({ scenarios: quick ? 40 : 300, rounds: quick ? 1 : 3, seed: 3 });
  log(`fresh modules per incarnation, one core, CPU time: ${fixed(isolation.freshMs, 3)} vs ${fixed(isolation.sharedMs, 3)} ms shared (×${fixed(isolation.ratio, 2)})`);
  const ambient = await ambientCost({ scenarios: quick ? 40 : 300, rounds: quick ? 1 : 3, seed: 4 });
  log(`a journal on Node's own APIs vs the same protocol on env, one core, CPU time: ${fixed(ambient.nodeMs, 3)} vs ${fixed(ambient.envMs, 3)} ms (×${fixed(ambient.ratio, 2)})`);
  const sqlite = await sqliteCost({ scenarios: quick ? 10 : 100, rounds: quick ? 1 : 3, seed: 5 });
  log(`a journal on better-sqlite3 (served: SQLite in WebAssembly) vs the same protocol on a JSON file, one core, CPU time: ${fixed(sqlite.sqliteMs, 3)} vs ${fixed(sqlite.fileMs, 3)} ms (×${fixed(sqlite.ratio, 2)}); ${fixed(sqlite.commits, 1)} transactions a scenario, ${fixed(sqlite.extraUsPerCommit, 0)} µs more a transaction`);

  const explorePool = new WorkerPool({ workers: 1, warm: false });
  const exploreStarted = performance.now();
  const loaded = await explorePool.load(bundledJournal('reference')!);
  const sweep = await exploreCrashes({ pool: explorePool, journalId: loaded.journalId, base: quick ? baseScenario(STANDARD_OPERATIONS.slice(0, 1)) : featuredScenario(), depth: 1, ...(quick ? { families: ['crash', 'disk'] as const } : {}) });
  const exploreSeconds = (performance.now() - exploreStarted) / 1000;
  await explorePool.close();
  const exploreDepth1 = { states: sweep.states, runs: sweep.runs, points: sweep.rows.reduce((n, r) => n + r.points, 0), seconds: exploreSeconds, findings: sweep.findings.length };
  const exploreBase = quick ? 'one publish, crashes only' : 'standard workload, every task feature';
  log(`explore --depth 1, ${exploreBase}, reference, one worker: ${exploreDepth1.points} crash points, ${exploreDepth1.states} states, ${exploreDepth1.runs} runs in ${fixed(exploreSeconds, 1)} s`);

  // Detection: every built-in mutant hunted as check runs by default at three seeds (the first shrunk, as the mutant gate does),
  // and explored at depth 1 from explore's default base. Quick: every nineteenth mutant (two), one seed, unshrunk, not explored.
  const detection = [];
  const pool = new WorkerPool({ warm: false });
  for (const [i, mutant] of MUTANTS.entries()) {
    if (quick && i % 19 !== 0) continue;
    const ref = bundledJournal(mutant.journal.name)!;
    const seeds = [];
    for (const [k, seed] of (quick ? [mutantSeed(i)] : [mutantSeed(i), 1, 2]).entries()) {
      const r = await huntJournal(pool, ref, { numRuns: quick ? 300 : MUTANT_BUDGET, seed, ...mutantArbitrary(mutant), ...(quick || k > 0 ? { shrink: false } : {}) });
      seeds.push({ seed, killed: r.killed, runs: r.runsToFailure, msToFailure: r.msToFailure, ...(k === 0 ? { shrinkMs: r.shrinkMs } : {}) });
    }
    let explored: { found: boolean; runs: number; families: string[] } | undefined;
    if (!quick) {
      const journal = await pool.load(ref);
      const e = await exploreCrashes({ pool, journalId: journal.journalId, base: featuredScenario(), depth: 1, ...(mutant.faults ? { families: mutant.faults } : {}) });
      explored = { found: e.baseViolations.length > 0 || e.findings.length > 0, runs: e.runs, families: e.baseViolations.length > 0 ? ['(fault-free)'] : [...new Set(e.findings.map((f) => f.family))] };
    }
    detection.push({ mutant: mutant.journal.name, seeds, worstRuns: seeds.every((s) => s.killed) ? Math.max(...seeds.map((s) => s.runs ?? 0)) : undefined, ...(explored ? { explore: explored } : {}) });
  }
  await pool.close();
  const detectionTable = [
    '| mutant | runs to detection at seeds (index seed, 1, 2) | ms to detection | explore --depth 1 |',
    '|---|---|---|---|',
    ...detection.map((d) => `| ${d.mutant} | ${d.seeds.map((x) => (x.killed ? String(x.runs) : `not in ${quick ? 300 : MUTANT_BUDGET}`)).join(', ')} | ${d.seeds.map((x) => (x.msToFailure !== undefined ? fixed(x.msToFailure, 0) : '—')).join(', ')} | ${d.explore ? (d.explore.found ? `found (${d.explore.families.join(', ')}; ${d.explore.runs} runs)` : `not found (${d.explore.runs} runs)`) : '—'} |`),
  ];
  log(`\n${detectionTable.join('\n')}`);

  const memory = await heapGrowth(Math.min(1000, Math.max(1, Math.floor(memoryRuns / 10))), memoryRuns, 9000);
  log(`memory: heap ${fixed(memory.earlyHeapMb, 1)} MB after ${memory.early} scenarios, ${fixed(memory.lateHeapMb, 1)} MB after ${memory.late}${memory.gcExposed ? '' : ' (run with --expose-gc for exact numbers)'}`);
  const real = [];
  for (let i = 0; i < realRuns; i++) real.push(await realScenario(1 + (i % 3)));
  const realMs = real.reduce((n, r) => n + r.ms, 0) / real.length;
  log(`real processes: ${real.length} scenarios, ${fixed(realMs, 0)} ms each`);

  const rows = checkRows(froms, check, shortRuns, longRuns, floorThreads.ratio);
  const table = [
    '| measure | value | target |',
    '|---|---|---|',
    `| the journal floor: the reference journal's fault-free standard task on a Map and plain objects, per run (${floor.calls} calls) | ${fixed(floor.msPerRun, 3)} ms | — |`,
    `| the journal floor per call | ${fixed(floor.usPerCall, 2)} µs | — |`,
    `| the journal floor in two worker threads vs one, runs per second of wall time (the machine's cap on scaling that day) | ×${fixed(floorThreads.ratio, 2)} (${fixed(floorThreads.twoThreadsPerSecond, 0)} vs ${fixed(floorThreads.oneThreadPerSecond, 0)}/s) | — |`,
    ...rows,
    `| check's CPU per trace entry over the floor's per call (from the sources) | ×${fixed(ratio, 2)} | ≤ ×4 |`,
    ...workerRows,
    `| fresh modules at every incarnation vs shared, CPU ms a scenario (why they run on a sample) | ×${fixed(isolation.ratio, 2)} (${fixed(isolation.freshMs, 3)} vs ${fixed(isolation.sharedMs, 3)} ms) | — |`,
    `| a journal on Node's own APIs (examples/node-journal) vs the same protocol on env (reference), CPU ms a scenario | ×${fixed(ambient.ratio, 2)} (${fixed(ambient.nodeMs, 3)} vs ${fixed(ambient.envMs, 3)} ms) | ≤ ×1.5 |`,
    `| a journal on better-sqlite3 (examples/libraries/better-sqlite3, rollback journal, synchronous=EXTRA) vs the same protocol on a JSON file (examples/libraries/jsonfile), fresh modules, CPU ms a scenario | ×${fixed(sqlite.ratio, 2)} (${fixed(sqlite.sqliteMs, 3)} vs ${fixed(sqlite.fileMs, 3)} ms; ${fixed(sqlite.extraUsPerCommit, 0)} µs more a SQLite transaction) | ≤ ×3 |`,
    `| explore --depth 1, ${exploreBase}, one worker: ${exploreDepth1.states} states (${exploreDepth1.runs} runs) | ${fixed(exploreSeconds, 1)} s | ≤ 60 s |`,
    `| heap after ${memory.late} vs ${memory.early} scenarios | ${fixed(memory.lateHeapMb, 1)} vs ${fixed(memory.earlyHeapMb, 1)} MB | flat |`,
    `| a real-process scenario (the old way: worker processes, SIGKILL, node:http) | ${fixed(realMs, 0)} ms | — |`,
  ].join('\n');
  log(`\n${table}`);
  const report = { node: process.version, line, cores: availableParallelism(), mode, quick, floor, floorThreads, check, ratio, workerWarmth: warmth, isolation, ambient, sqlite, exploreDepth1, detection, detectionTable, memory, real: { runs: real, msPerScenario: realMs } };
  writeRow(out, report);
  log(`wrote ${out} (row ${line})`);
  return report;
}

/** The report as its Node line's row of `out`, the other lines' rows kept. */
function writeRow(out: string, report: { node: string }): void {
  let existing: unknown;
  try {
    existing = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  } catch {
    existing = undefined; // not JSON: written afresh
  }
  makeDirDurably(dirname(out));
  writeFileDurably(out, `${JSON.stringify(withRow(existing, report), null, 2)}\n`);
}

/** The table's rows of check from each place (sources, package). */
function checkRows(froms: CheckFrom[], check: Record<string, Record<string, unknown>>, shortRuns: number, longRuns: number, floorRatio: number): string[] {
  const rows: string[] = [];
  // Two workers' target is the plain code's own scaling that day (floorScaling.ts), not a fixed figure: a busy or throttled machine caps both.
  const scalingTarget = `≥ ×${fixed(SCALING_SHARE * floorRatio, 2)} (${SCALING_SHARE} × the floor's ×${fixed(floorRatio, 2)})`;
  for (const from of froms) {
    const c = check[from] as Record<string, unknown>;
    const m = c.marginal as ReturnType<typeof marginal>;
    const d = c.atDefault as { cpuMsPerScenario: number; cpuUsPerEntry: number };
    const s = c.scaling as { ratio: number; oneWorkerPerSecond: number; twoWorkersPerSecond: number };
    const long = c.long as CheckRun;
    const two = c.two as CheckRun;
    const threads = (run: CheckRun): string => (run.threads.measured ? `main ${seconds(run.threads.mainSeconds)}, workers ${run.threads.workerSeconds.map(seconds).join(' + ')}, V8 and libuv helpers ${seconds(run.threads.helperSeconds)}` : 'not measured (no /proc)');
    rows.push(
      `| check from the ${from}: CPU a scenario, past the first ${shortRuns} runs (one worker, ${longRuns} runs; every fault family, its re-runs) | ${fixed(m.cpuMsPerScenario, 3)} ms | — |`,
      `| the same, per trace entry (${fixed(m.entriesPerScenario, 0)} entries a scenario) | ${fixed(m.cpuUsPerEntry, 1)} µs | — |`,
      `| the same at the default budget (${shortRuns} runs: start-up and warm-up included), per scenario and per entry | ${fixed(d.cpuMsPerScenario, 3)} ms, ${fixed(d.cpuUsPerEntry, 1)} µs | — |`,
      `| fixed cost of a check from the ${from}: CPU until its first scenario came back | ${fixed(c.fixedCpuMs as number, 0)} ms | ≤ ${FIXED_COST_TARGET_MS} ms |`,
      `| warm-up: CPU a worker spends over its first ${shortRuns} runs beyond the steady rate (every worker pays it) | ${fixed(c.warmUpCpuMs as number, 0)} ms | ≤ ${WARM_UP_TARGET_MS} ms |`,
      `| two workers' CPU beyond one worker's for the same ${longRuns} runs (a second boot and warm-up, two busy threads contending) | ${fixed(c.twoWorkersExtraCpuMs as number, 0)} ms of ${fixed(long.cpuMs, 0)} ms | — |`,
      `| 2 workers vs 1, runs per second of wall time (${longRuns} runs) | ×${fixed(s.ratio, 2)} (${fixed(s.twoWorkersPerSecond, 0)} vs ${fixed(s.oneWorkerPerSecond, 0)}/s) | ${scalingTarget} |`,
      `| CPU per thread, one worker | ${threads(long)} | — |`,
      `| CPU per thread, two workers | ${threads(two)} | — |`,
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await runBench(process.argv.slice(2));
