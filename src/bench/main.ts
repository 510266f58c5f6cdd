/**
 * npm run bench: where durasim's time goes, and how it compares with the old way. Prints a table
 * and writes reports/bench.json. Machines are shared and noisy: compare ratios from one run.
 * Usage: npm run bench [-- --quick] [--seconds S] [--memory-runs N] [--real N] [--out FILE]
 */
import { writeFileDurably, makeDirDurably } from '../durableFile.js';
import { availableParallelism, cpus } from 'node:os';
import { dirname } from 'node:path';
import { simulate } from '../../simulator/simulate.js';
import { baseScenario, STANDARD_FILES, STANDARD_OPERATIONS, STANDARD_RESOURCES } from '../arbitraries.js';
import type { Task } from '../../model/contract/contract.js';
import { MUTANTS } from '../journals/mutants/index.js';
import { referenceJournal } from '../journals/reference.js';
import { MUTANT_BUDGET, mutantSeed } from '../mutantsMain.js';
import { huntJournal } from '../mutation.js';
import { bundledJournal } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { bareEnv, BARE_SERVICE_URL } from './bareEnv.js';
import { heapGrowth } from './memory.js';
import { isolationCost } from './isolationCost.js';
import { ambientCost } from './ambientCost.js';
import { compareThroughput } from './poolThroughput.js';
import { exploreCrashes } from '../runner/crashExplorer.js';
import { realScenario } from './realProcess.js';

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  const value = at === -1 ? fallback : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * The fault-free standard task three ways, in alternating rounds (best of each): on memfs's promise
 * API (bare), on memfs's synchronous calls (the journal's own work: a floor no simulator on memfs
 * goes under, so 1000 / floorMs scenarios/s is a ceiling), and simulated.
 */
async function overhead(runs: number): Promise<{ bareMs: number; floorMs: number; simulatedMs: number; ratio: number; ceilingPerSecond: number }> {
  const task: Task = { id: 'task-1', operations: [...STANDARD_OPERATIONS], service: { url: BARE_SERVICE_URL, query: true, idempotentReplay: true } };
  const scenario = baseScenario();
  const ways = [
    () => referenceJournal.run(bareEnv(STANDARD_FILES, STANDARD_RESOURCES), task),
    () => referenceJournal.run(bareEnv(STANDARD_FILES, STANDARD_RESOURCES, 'sync'), task),
    () => simulate(referenceJournal, scenario),
  ];
  const timed = async (way: () => Promise<unknown>, n: number): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await way();
    return (performance.now() - started) / n;
  };
  for (const way of ways) await timed(way, 50);
  const best = [Infinity, Infinity, Infinity];
  for (let round = 0; round < 5; round++) for (const [i, way] of ways.entries()) best[i] = Math.min(best[i] as number, await timed(way, Math.ceil(runs / 5)));
  const [bareMs, floorMs, simulatedMs] = best as [number, number, number];
  return { bareMs, floorMs, simulatedMs, ratio: simulatedMs / bareMs, ceilingPerSecond: 1000 / floorMs };
}

export async function runBench(args: string[]): Promise<Record<string, unknown>> {
  const quick = args.includes('--quick');
  const seconds = flag(args, '--seconds', quick ? 0.5 : 10);
  const memoryRuns = flag(args, '--memory-runs', quick ? 200 : 100_000);
  const realRuns = flag(args, '--real', quick ? 1 : 5);
  const out = args.includes('--out') ? (args[args.indexOf('--out') + 1] as string) : 'reports/bench.json';
  const log = (line: string): void => console.log(line);
  log(`durasim bench · node ${process.version} · ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}) · ${quick ? 'quick' : 'full'}`);

  const rounds = quick ? 1 : 5;
  const throughputs = await compareThroughput({ rounds, roundSeconds: seconds / rounds, seed: 2 });
  const single = { perSecond: throughputs.before };
  const oneWorker = throughputs.oneWorker;
  const twoWorkers = throughputs.twoWorkers;
  log(`before the pool (main thread, modules shared): ${single.perSecond.toFixed(0)} scenarios/s; the pool as check runs: 1 worker ${oneWorker.toFixed(0)}/s, 2 workers ${twoWorkers.toFixed(0)}/s (best of ${rounds} rounds)`);
  const isolation = await isolationCost({ scenarios: quick ? 40 : 300, rounds: quick ? 1 : 5, seed: 3 });
  log(`fresh modules per incarnation, one core, CPU time: ${isolation.freshMs.toFixed(3)} vs ${isolation.sharedMs.toFixed(3)} ms shared (×${isolation.ratio.toFixed(2)})`);
  const ambient = await ambientCost({ scenarios: quick ? 40 : 300, rounds: quick ? 1 : 5, seed: 4 });
  log(`a journal on Node's own APIs vs the same protocol on env, one core, CPU time: ${ambient.nodeMs.toFixed(3)} vs ${ambient.envMs.toFixed(3)} ms (×${ambient.ratio.toFixed(2)})`);
  const cost = await overhead(quick ? 50 : 1000);
  log(`overhead, no faults: bare ${cost.bareMs.toFixed(3)} ms, simulated ${cost.simulatedMs.toFixed(3)} ms (×${cost.ratio.toFixed(2)}); the journal's own work ${cost.floorMs.toFixed(3)} ms, so at most ${cost.ceilingPerSecond.toFixed(0)} fault-free scenarios/s on memfs`);
  const real = [];
  for (let i = 0; i < realRuns; i++) real.push(await realScenario(1 + (i % 3)));
  const realPerSecond = real.length / (real.reduce((n, r) => n + r.ms, 0) / 1000);
  log(`real processes: ${real.length} scenarios, ${(1000 / realPerSecond).toFixed(0)} ms each (${realPerSecond.toFixed(2)}/s); one worker is ×${(oneWorker / realPerSecond).toFixed(0)}`);
  const detection = [];
  const pool = new WorkerPool();
  // Quick: a sample (every eighth mutant), found but not shrunk — the mutant suite is the gate on kills and shrinking.
  for (const [i, mutant] of MUTANTS.entries()) {
    if (quick && i % 8 !== 0) continue;
    const r = await huntJournal(pool, bundledJournal(mutant.journal.name)!, { numRuns: quick ? 300 : MUTANT_BUDGET, seed: mutantSeed(i), ...(quick ? { shrink: false } : {}) });
    detection.push({ mutant: mutant.journal.name, killed: r.killed, runs: r.runsToFailure, msToFailure: r.msToFailure, shrinkMs: r.shrinkMs });
  }
  await pool.close();
  // explore --depth 1 on the standard workload, one worker (one core): the exhaustive crash sweep.
  const explorePool = new WorkerPool({ workers: 1 });
  const exploreStarted = performance.now();
  const loaded = await explorePool.load(bundledJournal('reference')!);
  const sweep = await exploreCrashes({ pool: explorePool, journalId: loaded.journalId, base: quick ? baseScenario(STANDARD_OPERATIONS.slice(0, 1)) : baseScenario(), depth: 1 });
  const exploreSeconds = (performance.now() - exploreStarted) / 1000;
  await explorePool.close();
  const exploreDepth1 = { states: sweep.states, runs: sweep.runs, points: sweep.rows.reduce((n, r) => n + r.points, 0), seconds: exploreSeconds, findings: sweep.findings.length };
  log(`explore --depth 1, ${quick ? 'one publish (quick)' : 'standard workload'}, reference, one worker: ${exploreDepth1.points} crash points, ${exploreDepth1.states} crash states, ${exploreDepth1.runs} runs in ${exploreSeconds.toFixed(1)} s`);
  log(`detection: ${detection.map((d) => `${d.mutant} ${d.runs ?? '—'} runs/${d.msToFailure?.toFixed(0) ?? '—'} ms`).join('; ')}`);
  const memory = await heapGrowth(Math.min(1000, Math.max(1, Math.floor(memoryRuns / 10))), memoryRuns, 9000);
  log(`memory: heap ${memory.earlyHeapMb.toFixed(1)} MB after ${memory.early} scenarios, ${memory.lateHeapMb.toFixed(1)} MB after ${memory.late}${memory.gcExposed ? '' : ' (run with --expose-gc for exact numbers)'}`);

  const targets = {
    scenariosPerSecond: { target: 2000, measured: oneWorker, met: oneWorker >= 2000, ceilingFaultFree: cost.ceilingPerSecond },
    isolationCost: { target: 'informational: what running every incarnation with fresh modules would cost; the pool does it on sampled crash runs', measured: isolation.ratio, met: true },
    poolVersusBefore: { target: 'one worker within 20% of the main thread before', measured: oneWorker / single.perSecond, met: oneWorker >= single.perSecond * 0.8 },
    versusRealProcesses: { target: 1000, measured: oneWorker / realPerSecond, met: oneWorker / realPerSecond >= 1000 },
    overhead: { target: 3, measured: cost.ratio, met: cost.ratio <= 3 },
    nodeApisVersusEnv: { target: 1.5, measured: ambient.ratio, met: ambient.ratio <= 1.5 },
    twoWorkerScaling: { target: 1.8, measured: twoWorkers / oneWorker, met: twoWorkers / oneWorker >= 1.8 },
    exploreDepth1: { target: 'within 60 s on one core', measured: exploreSeconds, met: exploreSeconds <= 60 },
    heapFlat: { target: 'late heap within 20% of early', measured: memory.lateHeapMb / Math.max(0.001, memory.earlyHeapMb), met: memory.lateHeapMb <= memory.earlyHeapMb * 1.2 },
  };
  const table = [
    '| measure | value | target | met |',
    '|---|---|---|---|',
    `| scenarios/s, one worker (as check runs: generated in the main thread; simulated, judged and re-run for determinism and with fresh modules in the worker) | ${oneWorker.toFixed(0)} | ≥ 2000 | ${targets.scenariosPerSecond.met ? 'yes' : 'no'} |`,
    `| the same, before the pool (main thread, modules shared) | ${single.perSecond.toFixed(0)} | — | — |`,
    `| one worker vs before | ×${targets.poolVersusBefore.measured.toFixed(2)} | ≥ ×0.80 | ${targets.poolVersusBefore.met ? 'yes' : 'no'} |`,
    `| fresh modules at every incarnation vs shared, CPU ms per scenario (why they run on a sample) | ×${isolation.ratio.toFixed(2)} (${isolation.freshMs.toFixed(3)} vs ${isolation.sharedMs.toFixed(3)} ms) | — | — |`,
    `| × real-process baseline (${(1000 / realPerSecond).toFixed(0)} ms per real scenario), one worker | ${targets.versusRealProcesses.measured.toFixed(0)} | ≥ 1000 | ${targets.versusRealProcesses.met ? 'yes' : 'no'} |`,
    `| a journal on Node's own APIs (examples/node-journal) vs the same protocol on env (reference), CPU ms per scenario | ×${ambient.ratio.toFixed(2)} (${ambient.nodeMs.toFixed(3)} vs ${ambient.envMs.toFixed(3)} ms) | ≤ ×1.5 | ${targets.nodeApisVersusEnv.met ? 'yes' : 'no'} |`,
    `| the journal's own work, fault-free task (memfs's synchronous calls, nothing simulated): a ceiling on scenarios/s for any simulator on memfs | ${cost.floorMs.toFixed(3)} ms → at most ${cost.ceilingPerSecond.toFixed(0)}/s | — | — |`,
    `| overhead vs bare run, no faults | ×${cost.ratio.toFixed(2)} (${cost.simulatedMs.toFixed(3)} vs ${cost.bareMs.toFixed(3)} ms) | ≤ ×3 | ${targets.overhead.met ? 'yes' : 'no'} |`,
    `| 2 worker threads vs 1 | ×${targets.twoWorkerScaling.measured.toFixed(2)} (${twoWorkers.toFixed(0)} vs ${oneWorker.toFixed(0)}/s) | ≥ ×1.8 | ${targets.twoWorkerScaling.met ? 'yes' : 'no'} |`,
    `| explore --depth 1, standard workload, one worker: ${exploreDepth1.states} crash states (${exploreDepth1.runs} runs) | ${exploreSeconds.toFixed(1)} s | ≤ 60 s | ${targets.exploreDepth1.met ? 'yes' : 'no'} |`,
    `| heap after ${memory.late} vs ${memory.early} scenarios | ${memory.lateHeapMb.toFixed(1)} vs ${memory.earlyHeapMb.toFixed(1)} MB | flat | ${targets.heapFlat.met ? 'yes' : 'no'} |`,
  ].join('\n');
  log(`\n${table}`);
  const report = { node: process.version, cores: availableParallelism(), quick, throughputs, isolation, ambient, overhead: cost, real: { runs: real, perSecond: realPerSecond }, detection, exploreDepth1, memory, targets };
  makeDirDurably(dirname(out));
  writeFileDurably(out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${out}`);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) await runBench(process.argv.slice(2));
