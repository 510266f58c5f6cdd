/**
 * A worker thread of the pool: it guards this thread first (before any journal code is
 * evaluated), then loads journals as bundles and runs scenarios one at a time: simulate (with the
 * journal's modules shared, or fresh per incarnation), judge, and post the result. It writes a
 * heartbeat at every step for the watchdog, and stops a run whose memory passes the limit.
 */
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { judge } from '../../model/judge.js';
import { formatTraceEntry } from '../../simulator/world/trace.js';
import { VIRTUAL_EPOCH_MS } from '../../simulator/world/clock.js';
import { pureServe } from '../../simulator/sandbox/pureServe.js';
import { installAmbientGuard, NOT_SERVED, runAsTurn, type Escape, type TurnHolder } from '../../simulator/sandbox/ambientGuard.js';
import { escapeReason } from '../../simulator/sandbox/escapeCatalog.js';
import { reportUncaught, simulate, type SimulationResult } from '../../simulator/simulate.js';
import { SimulatorInvariantError } from '../../simulator/invariant.js';
import { WORK_DIR } from '../../simulator/scenario/scenario.js';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { DurasimError } from '../../model/contract/failure.js';
import { compileJournal, type JournalInstances } from '../isolation/journalInstances.js';
import { journalErrors } from '../report/runReport.js';
import { beat, setBusy } from './heartbeat.js';
import type { FromWorker, ModuleMode, RunSummary, ToWorker, WorkerData } from './protocol.js';
import { generatedScenario, rerunFor } from '../runner/scenarioSource.js';
import { windowsOf } from '../runner/faultWindows.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';

/** The thread's setup, made once by startPoolWorker(): importing this module does nothing (the worker graph holds it for the main thread too). */
let heartbeat: Int32Array;
let maxHeapMb = 0;
let durasimIndex = '';
let port: NonNullable<typeof parentPort>;
let collectGarbage: () => void = () => {};
// Taken when this module loads, before the sandbox refuses a journal every real port's method and
// before any journal could replace one: only durasim's own messages leave by it.
const { apply } = Reflect;
const postMessage = MessagePort.prototype.postMessage;
const post = (message: FromWorker): void => void apply(postMessage, port, [message]);

class JournalOutOfMemory extends Error {}

const MB = 1024 * 1024;
/** The journal's memory now (heap in use and buffers), MB; after a full collection when it looks over the limit. */
function memoryMb(collect: boolean): number {
  if (collect) collectGarbage();
  const stats = getHeapStatistics();
  return (stats.used_heap_size + stats.external_memory) / MB;
}

let beats = 0;
function onBeat(globalStep: number, proc: { pid: number; incarnation: number } | undefined, op: string): void {
  beat(heartbeat, globalStep, proc?.pid ?? -1, proc?.incarnation ?? 0, op);
  if ((++beats & 63) !== 0 || memoryMb(false) < maxHeapMb) return;
  const retained = memoryMb(true);
  if (retained >= maxHeapMb) throw new JournalOutOfMemory(`the journal held ${retained.toFixed(0)} MB (heap and buffers) at global step ${globalStep}, over the ${maxHeapMb} MB limit (--max-heap)`);
}

const journals = new Map<number, { instances: JournalInstances; first: JournalAdapter }>();

/**
 * The turn a journal's module loads under, for its name: what its top-level code reaches is
 * caught, what it reads of the world counted in `reads`, and its process.env is `environment`.
 */
function loadTurn(escapes: Escape[], reads: { count: number }, environment: Record<string, string>): TurnHolder {
  const pure = pureServe(() => VIRTUAL_EPOCH_MS);
  return {
    simulated: { pid: 1, cwd: WORK_DIR, env: { ...environment }, listeners: new Map() },
    loading: true,
    onEscape: (api) => {
      const escape: Escape = { api, pid: -1, incarnation: 0, message: escapeReason(api, true) };
      escapes.push(escape);
      return escape;
    },
    exit: () => {},
    // A clock read gives the start of virtual time; a module that reads the world as it loads keeps what it read.
    serve: (api, args, thisArg, newTarget, real) => {
      const value = pure(api, args, thisArg, newTarget, real);
      if (value !== NOT_SERVED) reads.count++;
      return value;
    },
  };
}

async function load(message: Extract<ToWorker, { type: 'load' }>): Promise<void> {
  const escapes: Escape[] = [];
  try {
    const instances = await compileJournal(message.bundle, durasimIndex);
    const reads = { count: 0 };
    const first: JournalAdapter = runAsTurn(loadTurn(escapes, reads, message.environment), () => instances.fresh());
    journals.set(message.journalId, { instances, first });
    post({ type: 'loaded', journalId: message.journalId, name: first.name, escapes, readsWorldAtLoad: reads.count > 0 });
  } catch (error) {
    const failure = error instanceof DurasimError ? { action: error.action, reason: error.reason, fix: error.fix } : undefined;
    post({ type: 'load-failed', journalId: message.journalId, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ...(failure ? { failure } : {}), escapes });
  }
}

type RunMessage = Extract<ToWorker, { type: 'run' }>;

async function simulateOnce(journal: { instances: JournalInstances; first: JournalAdapter }, message: RunMessage, modules: ModuleMode): Promise<{ summary: RunSummary; result?: SimulationResult; crashed: boolean }> {
  const extra = { ...(message.detail === 'full' ? { diskLane: true, diskCalls: true, wholeCalls: true } : {}), ...(message.crashStates ? { crashDigests: true } : {}), ...(message.cutAfterStep !== undefined ? { cutAfterStep: message.cutAfterStep } : {}) };
  // Modules shared by a run's incarnations are still the run's own: no module memory of one scenario reaches the next.
  const result = await simulate(journal.first, message.scenario, modules === 'fresh' ? { fresh: journal.instances.fresh, beat: onBeat, outputText: journal.instances.outputText, ...extra } : { perRun: journal.instances.fresh, beat: onBeat, outputText: journal.instances.outputText, ...extra });
  // The journal's own frames, at their places in its sources (the bundle's positions mean nothing to its author).
  for (const exit of result.exits) if (exit.stack !== undefined) exit.stack = journal.instances.journalStack(exit.stack);
  const summary: RunSummary = {
    outcome: result.outcome,
    violations: judge(result),
    escapes: result.escapes,
    stats: result.stats,
    journalErrors: journalErrors(result),
    ...(result.inspectProblems.length > 0 ? { inspectProblems: [...result.inspectProblems] } : {}),
    crashStates: message.crashStates ? result.crashes.map((c) => ({ seq: c.seq, imageDigest: c.imageDigest ?? '', unsyncedAppends: c.disk.unsyncedAppends })) : [],
  };
  if (message.detail !== 'summary') summary.traceHash = result.traceHash;
  if (message.detail === 'trace') summary.trace = result.trace;
  if (message.generate?.windows) summary.windows = windowsOf(result.trace, message.generate.windows === 'offers');
  if (message.output || message.generate?.output) summary.output = result.trace.filter((t) => t.op === 'stdout' || t.op === 'stderr').map(formatTraceEntry);
  const crashed = result.crashes.length > 0;
  return message.detail === 'full' ? { summary, result: { ...result, traceHash: result.traceHash }, crashed } : { summary, crashed };
}

/** A failpoint for durasim's own tests: the harness-failure path (exit 5) must be provable end to end. */
const FAILPOINT = process.env.DURASIM_FAILPOINT;

async function run(message: RunMessage): Promise<void> {
  const journal = journals.get(message.journalId);
  if (!journal) {
    post({ type: 'harness-error', id: message.id, message: `journal ${message.journalId} was never loaded in this worker` });
    return;
  }
  setBusy(heartbeat, true);
  try {
    if (FAILPOINT === 'simulator-invariant') throw new SimulatorInvariantError('the DURASIM_FAILPOINT test failpoint is set');
    // A generated run: drawn here, its re-run chosen by its ordinal (the hashes then come back to compare).
    const scenario = message.generate ? generatedScenario(message.generate).value_ : message.scenario;
    const then = message.generate ? rerunFor(message.generate.ordinal, scenario as Scenario, message.generate.determinismEvery, message.generate.independenceEvery) : message.then;
    const request: RunMessage = { ...message, scenario, ...(then ? { then } : {}), ...(message.generate && then ? { detail: 'hash' as const } : {}) };
    const first = await simulateOnce(journal, request, request.modules);
    // With fresh modules only where they can differ: the run restarted a worker after a crash.
    const rerun = then === 'same' || (then === 'fresh' && first.crashed);
    const again = rerun ? await simulateOnce(journal, request, then === 'fresh' ? 'fresh' : request.modules) : undefined;
    setBusy(heartbeat, false);
    post({ type: 'result', id: message.id, summary: first.summary, ...(first.result ? { result: first.result } : {}), ...(again ? { again: { summary: again.summary, ...(again.result ? { result: again.result } : {}) } } : {}), ...(then ? { rerun: then } : {}), heapMb: memoryMb(false) });
  } catch (error) {
    setBusy(heartbeat, false);
    if (error instanceof JournalOutOfMemory) {
      post({ type: 'out-of-memory', id: message.id, detail: error.message });
      process.exit(0); // the memory goes with the thread; the pool starts a new one
    }
    post({ type: 'harness-error', id: message.id, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) });
  }
}

/**
 * Makes this thread a pool worker: guards it first (before any journal code is evaluated), then
 * serves the pool's messages one at a time. Called by the worker's boot (poolBoot.mjs), once.
 */
export function startPoolWorker(): void {
  if (!parentPort) throw new Error('a pool worker runs only in a worker thread');
  port = parentPort;
  installAmbientGuard({ permanent: true });
  ({ heartbeat, maxHeapMb, durasimIndex } = workerData as WorkerData);
  setFlagsFromString('--expose-gc');
  collectGarbage = runInNewContext('gc') as () => void;
  // A rejection or exception the journal left unhandled ends the incarnation that last ran, as it ends a process.
  process.on('unhandledRejection', (reason) => void reportUncaught(reason));
  process.on('uncaughtException', (error) => void reportUncaught(error));
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue.then(() => (message.type === 'load' ? load(message) : run(message)));
  });
}
