/**
 * A worker thread of the pool: it guards this thread first (before any journal code is
 * evaluated), then loads journals as bundles and runs scenarios one at a time: simulate (with the
 * journal's modules shared, or fresh per incarnation) and post the evidence (the main thread judges
 * it: runEvidence.ts). It writes a
 * heartbeat at every step for the watchdog, and stops a run whose memory passes the limit.
 */
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { formatTraceEntry } from '../../simulator/world/trace.js';
import { VIRTUAL_EPOCH_MS } from '../../simulator/world/clock.js';
import { pureServe } from '../../simulator/sandbox/pureServe.js';
import { claimMachinery, closeThread, installAmbientGuard, NOT_SERVED, runAsTurn, SimulatedExit, takeSharedBaseline, type Escape, type TurnHolder } from '../../simulator/sandbox/ambientGuard.js';
import { escapeReason } from '../../simulator/sandbox/escapeCatalog.js';
import { reportUncaught, simulate, type SimulationResult } from '../../simulator/simulate.js';
import { SimulatorInvariantError } from '../../simulator/invariant.js';
import { WORK_DIR } from '../../simulator/scenario/scenario.js';
import { loadMemfs } from '../../simulator/disk/diskState.js';
import { intrinsicChanges, lockIntrinsics } from '../../simulator/sandbox/lockIntrinsics.js';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { DurasimError } from '../../model/contract/failure.js';
import { compileJournal, type JournalInstances } from '../isolation/journalInstances.js';
import { journalErrors } from '../report/runReport.js';
import { beat, pulse, setBusy, setOwnWork, setReady, setThreadId } from './heartbeat.js';
import type { FromWorker, ModuleMode, ToWorker, WorkerData, WorkerSummary } from './protocol.js';
import { evidenceOf } from './runEvidence.js';
import { ownThreadId, threadCpuMs } from './threadCpuMs.js';
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

/** The pool worker's own calls of guarded APIs (the heap's size), in a thread closed to code no turn holds (sandbox/turn.ts). */
const machinery = claimMachinery();
/** The real process.exit, taken before the guards serve it to simulated processes. */
const exitThread = process.exit.bind(process);

const MB = 1024 * 1024;
/**
 * The journal's memory now (heap in use and buffers), MB. With `collect`, what it holds: after two
 * full collections, since buffers a collection finds dead are swept after it (the next collection
 * finishes that sweep); after one, a journal that dropped 1.5 GB still counted 1.5 GB, depending on
 * when the sweep ran.
 */
function memoryMb(collect: boolean): number {
  if (collect) {
    collectGarbage();
    collectGarbage();
  }
  const stats = machinery(getHeapStatistics);
  return (stats.used_heap_size + stats.external_memory) / MB;
}

/** Steps of the current simulation: the memory check falls on its own 64th steps, whatever the worker ran before. */
let beats = 0;
function onBeat(globalStep: number, proc: { pid: number; incarnation: number } | undefined, op: string): void {
  beat(heartbeat, globalStep, proc?.pid ?? -1, proc?.incarnation ?? 0, op);
  // Unswept buffers only add to the quick look, so below the limit there it is below the limit held.
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

/**
 * What a journal's modules left unhandled while they loaded (a promise rejected at the top level,
 * nobody listening): collected while a load settles, since no simulated process runs then to end.
 */
let leftAtLoad: unknown[] | undefined;

async function load(message: Extract<ToWorker, { type: 'load' }>): Promise<void> {
  const escapes: Escape[] = [];
  leftAtLoad = [];
  // Alive while the load awaits (its imports): the watchdog then tells a slow load on a busy machine from a module that never returns.
  const alive = machinery(() => setInterval(() => pulse(heartbeat), 100));
  try {
    setOwnWork(heartbeat, true);
    if (FAILPOINT === 'load-never-ends') await new Promise(() => undefined);
    // The thread's baseline (sharedBaseline.ts) is durasim's own work too: taken here, not in the journal's first incarnation.
    const instances = await compileJournal(message.bundle, durasimIndex)
      .then((compiled) => (takeSharedBaseline(), compiled))
      .finally(() => setOwnWork(heartbeat, false));
    const reads = { count: 0 };
    const turn = loadTurn(escapes, reads, message.environment);
    // What the journal's top level spends is counted from here, not durasim's compiling before it.
    pulse(heartbeat);
    const first: JournalAdapter = runAsTurn(turn, () => instances.fresh());
    // Node reports a rejection nobody handled once the tick that made it ends: one turn of the loop later.
    await new Promise<void>((settled) => machinery(() => setImmediate(settled)));
    const [left] = leftAtLoad;
    if (leftAtLoad.length > 0) {
      const text = runAsTurn(turn, () => {
        try {
          return left instanceof Error ? `${left.name}: ${left.message}` : String(left);
        } catch {
          return 'a value that cannot be shown';
        }
      });
      throw new DurasimError('load the journal', `evaluating ${message.bundle.ref.spec} left ${leftAtLoad.length === 1 ? 'an error' : `${leftAtLoad.length} errors`} nothing handles (${text.slice(0, 300)}): in Node its process would end of it at every start`, 'Handle it in the module, or do that work inside run()');
    }
    const replaced = replacedBuiltins();
    escapes.push(...replaced);
    journals.set(message.journalId, { instances, first });
    post({ type: 'loaded', journalId: message.journalId, name: first.name, escapes, readsWorldAtLoad: reads.count > 0, ...(replaced.length > 0 ? { retire: true } : {}) });
  } catch (error) {
    const replaced = replacedBuiltins();
    escapes.push(...replaced);
    const failure = error instanceof DurasimError ? { action: error.action, reason: error.reason, fix: error.fix } : undefined;
    post({ type: 'load-failed', journalId: message.journalId, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ...(failure ? { failure } : {}), ...(error instanceof SimulatedExit ? { exitCode: error.code } : {}), escapes, ...(replaced.length > 0 ? { retire: true } : {}) });
  } finally {
    leftAtLoad = undefined;
    machinery(() => clearInterval(alive));
  }
}

type RunMessage = Extract<ToWorker, { type: 'run' }>;

/** The watched builtins the journal replaced (lockIntrinsics.ts), as escapes of code in no process (it is not known whose). */
function replacedBuiltins(): Escape[] {
  return intrinsicChanges().map((name) => {
    const api = `replacing ${name}`;
    return { api, pid: -2, incarnation: 0, message: escapeReason(api) };
  });
}

async function simulateOnce(journal: { instances: JournalInstances; first: JournalAdapter }, message: RunMessage, modules: ModuleMode): Promise<{ summary: WorkerSummary; result?: SimulationResult; crashed: boolean }> {
  const extra = { ...(message.detail === 'full' ? { diskLane: true, diskCalls: true, wholeCalls: true } : {}), ...(message.crashStates ? { crashDigests: true } : {}), ...(message.cutAfterStep !== undefined ? { cutAfterStep: message.cutAfterStep } : {}) };
  // Modules shared by a run's incarnations are still the run's own: no module memory of one scenario reaches the next.
  beats = 0;
  const result = await simulate(journal.first, message.scenario, modules === 'fresh' ? { fresh: journal.instances.fresh, beat: onBeat, outputText: journal.instances.outputText, ...extra } : { perRun: journal.instances.fresh, beat: onBeat, outputText: journal.instances.outputText, ...extra });
  // The journal's own frames, at their places in its sources (the bundle's positions mean nothing to its author).
  for (const exit of result.exits) if (exit.stack !== undefined) exit.stack = journal.instances.journalStack(exit.stack);
  const summary: WorkerSummary = {
    outcome: result.outcome,
    // Judged in the main thread, where no journal code runs (runEvidence.ts).
    evidence: evidenceOf(result),
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
    // A watched builtin the journal replaced ran inside the simulator: reported, and this thread is used no more.
    const replaced = replacedBuiltins();
    first.summary.escapes.push(...replaced);
    post({ type: 'result', id: message.id, summary: first.summary, ...(first.result ? { result: first.result } : {}), ...(again ? { again: { summary: again.summary, ...(again.result ? { result: again.result } : {}) } } : {}), ...(then ? { rerun: then } : {}), heapMb: memoryMb(false), ...(replaced.length > 0 ? { retire: true } : {}) });
  } catch (error) {
    setBusy(heartbeat, false);
    if (error instanceof JournalOutOfMemory) {
      post({ type: 'out-of-memory', id: message.id, detail: error.message });
      exitThread(0); // the memory goes with the thread; the pool starts a new one
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
  // So the watchdog tells a journal that holds its thread (its CPU time grows) from a thread the busy machine has not scheduled.
  setThreadId(heartbeat, machinery(ownThreadId));
  setFlagsFromString('--expose-gc');
  collectGarbage = runInNewContext('gc') as () => void;
  // A rejection or exception the journal left unhandled ends the incarnation that last ran, as it ends a process.
  // With no simulation running, what a load left is that load's (leftAtLoad).
  process.on('unhandledRejection', (reason) => void (reportUncaught(reason, 'unhandledRejection') || leftAtLoad?.push(reason)));
  process.on('uncaughtException', (error) => void (reportUncaught(error) || leftAtLoad?.push(error)));
  // Node's own handling of an uncaught exception (it emits 'uncaughtException', and on Node 24 asks
  // the process more on the way) is durasim's machinery, not code in no process: in a closed thread
  // it was refused there, and the worker died posting that refusal (exit 5).
  const fatal = (process as unknown as { _fatalException?: (...args: unknown[]) => unknown })._fatalException;
  if (typeof fatal === 'function') (process as unknown as { _fatalException: (...args: unknown[]) => unknown })._fatalException = (...args: unknown[]) => machinery(() => Reflect.apply(fatal, process, args));
  // What the simulator loads on first use is loaded now: a require() needs the real disk.
  loadMemfs();
  // The builtins durasim's own code runs on, out of the journal's reach (lockIntrinsics.ts).
  lockIntrinsics();
  // Listened to before the thread is closed: a real port's methods are refused to code no turn holds (guardChannels.ts).
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue.then(() => (message.type === 'load' ? load(message) : message.type === 'thread-cpu' ? post({ type: 'thread-cpu', ms: machinery(threadCpuMs) }) : message.type === 'forget' ? journals.clear() : run(message)));
  });
  // From here on journals run here: a guarded call no turn holds is refused (sandbox/turn.ts).
  closeThread();
  // Booted: from now on the watchdog counts what this thread spends without a beat.
  setReady(heartbeat);
}
