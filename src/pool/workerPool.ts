/**
 * WorkerPool: simulations run in worker threads, never in the caller's thread, so a journal that
 * loops forever, eats memory or leaves state behind cannot take durasim with it.
 *
 * - Each worker guards its thread, loads journals as bundles (a fresh instance of their modules
 *   per incarnation) and runs one scenario at a time.
 * - Watchdog: a busy worker whose heartbeat does not move while its thread spends `hangTimeoutMs`
 *   of its own CPU time is terminated; its run ends as `journal-blocked`, naming where it stopped.
 *   CPU time, not wall time: on a busy machine a thread may wait seconds for a core, and a slow load
 *   or step is not a blocked one. A thread that holds on without using CPU (where its CPU cannot be
 *   read: the hang timeout itself) is stopped after ten times that in wall time (hangRule.ts). A worker that passes
 *   its memory limit (`maxHeapMb`: V8's heap limit, and a check of what it holds, heap and buffers
 *   after a full collection, every 64th step of a run) ends its run as `journal-out-of-memory`.
 *   Either way a new worker takes its place.
 * - Workers are recycled when they hold more than half their limit between runs, so memory stays
 *   flat over long checks, and after `recycleAfterRuns` runs as a backstop. Not more often: a new
 *   worker boots and warms its compiled code again, which cost 12% of a 4,000-run check when
 *   workers were recycled every 2,000 runs.
 * - A run's outcome never depends on which worker ran it or how many there are.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DurasimError } from '../../model/contract/failure.js';
import { fixedTimeZone } from '../../simulator/sandbox/guardLocale.js';
import { bundleJournal, type JournalBundle } from '../isolation/bundleJournal.js';
import type { JournalRef } from '../isolation/journalRef.js';
import { beats, blockedAt, describeBlockedAt, isReady, newHeartbeat, threadIdOf } from './heartbeat.js';
import { threadCpuMsOf } from './threadCpuMs.js';
import { hangVerdict } from './hangRule.js';
import { ownModule } from '../ownFiles.js';
import { loadedGraph } from './loadedGraph.js';
import type { FromWorker, GeneratedRun, RunRequest, ToWorker, WorkerData } from './protocol.js';
import { judgedSummary } from './runEvidence.js';
import { bootFailure } from './bootFailure.js';
import { overMemoryBudget } from './memoryBudget.js';
import { loadFailure } from './loadFailure.js';
import { OwnFailure } from '../ownFailure.js';
import { ownWorkLook } from './ownWorkRule.js';
import { leaveWarmOrEnd, takeWarm, warmKey, workersKeptWarm } from './warmWorkers.js';
import { startWorker } from './workerExecArgv.js';

export type { LoadedJournal, PoolOptions, RunOutcome } from './poolTypes.js';
import type { LoadedJournal, PoolOptions, RunOutcome } from './poolTypes.js';

import type { PendingRun, Slot } from './poolSlot.js';

const BOOT = fileURLToPath(new URL('./poolBoot.mjs', import.meta.url));
const DURASIM_INDEX = ownModule('src/index');
const WATCHDOG_MS = 100;
/**
 * A worker's boot is bounded by the harness's clock: it loads durasim's own module graph, in well under
 * a second (≈300 ms of CPU: docs/benchmark.md's profile); one that has not said it is ready after this hangs
 * (a lock nothing releases, a loop) and would hang the command forever.
 */
export const BOOT_TIMEOUT_MS = 120_000;
/** Runs sent ahead to each worker, so it never waits for the main thread between two runs. */
const PIPELINE = 2;
const wallMs = (): number => performance.now(); // the harness's own clock: the simulation never reads it

export class WorkerPool {
  /** Worker threads: as many as asked at first, more after grow(). */
  get size(): number {
    return this.slots.length;
  }
  /** Workers this pool took warm from a pool of this process that closed (warmWorkers.ts), instead of booting them. */
  get warmTaken(): number {
    return this.tookWarm;
  }
  private tookWarm = 0;
  readonly maxHeapMb: number;
  readonly hangTimeoutMs: number;
  private readonly bootTimeoutMs: number;
  private readonly recycleAfterRuns: number;
  private readonly slots: Slot[] = [];
  private readonly queue: PendingRun[] = [];
  private readonly bundles = new Map<number, { bundle: JournalBundle; environment: Record<string, string> }>();
  private readonly loads = new Map<number, { resolve: (loaded: LoadedJournal) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private nextJournal = 0;
  private closed = false;
  /** A worker could not boot (bootFailure.ts): every load and run ends with it, and no worker starts again. */
  private broken: OwnFailure | undefined;
  private readonly boot: string;
  private readonly warm: boolean;
  private readonly watchdog: ReturnType<typeof setInterval>;

  constructor(options: PoolOptions = {}) {
    // The simulated processes live in UTC on every host: the time zone is the process's, and only
    // the main thread can set it (a worker's TZ changes nothing). It stays UTC while any pool lives.
    fixedTimeZone();
    const size = Math.max(1, options.workers ?? availableParallelism());
    this.maxHeapMb = options.maxHeapMb ?? 512;
    this.hangTimeoutMs = options.hangTimeoutMs ?? 5000;
    this.bootTimeoutMs = options.bootTimeoutMs ?? BOOT_TIMEOUT_MS;
    this.recycleAfterRuns = options.recycleAfterRuns ?? 50_000;
    this.boot = options.boot ?? BOOT;
    // Not while a worker's stderr is shown (DURASIM_DEBUG_WORKERS): a warm worker's streams are ended (warmWorkers.ts).
    this.warm = (options.warm ?? workersKeptWarm()) && !process.env.DURASIM_DEBUG_WORKERS;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
    this.watchdog = setInterval(() => this.watch(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  /**
   * Bundles the journal, loads it in a worker, and returns its name (DurasimError when it cannot
   * load). `environment` is its process.env while its modules load there (a module that reads its
   * configuration at its top level needs it), as every run's incarnations have their scenario's.
   */
  async load(ref: JournalRef, environment: Record<string, string> = {}): Promise<LoadedJournal> {
    if (this.broken) throw this.broken;
    const bundle = await bundleJournal(ref);
    if (this.broken) throw this.broken; // a worker failed to boot while the journal was bundled
    const journalId = this.nextJournal++;
    this.bundles.set(journalId, { bundle, environment: { ...environment } });
    return new Promise<LoadedJournal>((resolve, reject) => {
      this.loads.set(journalId, { resolve, reject });
      this.ensureLoaded(this.slots.find((slot) => !slot.exiting) as Slot, journalId);
    });
  }

  /**
   * Runs one scenario in the first free worker: with the journal's modules loaded afresh at every
   * incarnation, as every real process loads them (default), or shared by the run's incarnations
   * ('shared': what the bench compares); `then` runs it again right after in the same worker (see Rerun).
   */
  run(journalId: number, scenario: unknown, request: Partial<RunRequest> = {}, tag = -1): Promise<RunOutcome> {
    if (this.closed || this.broken) return Promise.resolve({ kind: 'harness-error', message: this.broken?.message ?? 'the worker pool is closed' });
    const modules = request.modules ?? 'fresh';
    const full: RunRequest = { detail: request.detail ?? 'summary', modules, ...(request.then ? { then: request.then } : {}), ...(request.crashStates ? { crashStates: true } : {}), ...(request.output ? { output: true } : {}), ...(request.cutAfterStep !== undefined ? { cutAfterStep: request.cutAfterStep } : {}) };
    return new Promise<RunOutcome>((resolve) => {
      this.queue.push({ id: this.nextId++, journalId, scenario, request: full, tag, resolve });
      this.dispatch();
    });
  }

  /**
   * Runs a scenario the worker draws itself (GeneratedRun: the seed's index-th, with the re-run its
   * ordinal asks for), its modules afresh at every incarnation, only the summary and the hashes of a re-run coming back.
   */
  runGenerated(journalId: number, generate: GeneratedRun, tag = -1): Promise<RunOutcome> {
    if (this.closed || this.broken) return Promise.resolve({ kind: 'harness-error', message: this.broken?.message ?? 'the worker pool is closed' });
    const full: RunRequest = { detail: 'summary', modules: 'fresh' };
    return new Promise<RunOutcome>((resolve) => {
      this.queue.push({ id: this.nextId++, journalId, generate, request: full, tag, resolve });
      this.dispatch();
    });
  }

  /**
   * Adds workers until there are `workers` (never removes one): a check searches with a few and
   * shrinks a finding with more. A new worker loads a journal when its first run of it comes.
   */
  grow(workers: number): void {
    if (this.closed || this.broken) return;
    while (this.slots.length < workers) this.slots.push(this.spawn());
    this.dispatch();
  }

  /** Takes the runs whose tag matches off the queue (not those a worker already has); they resolve as cancelled. */
  cancel(matches: (tag: number) => boolean): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const run = this.queue[i] as PendingRun;
      if (!matches(run.tag)) continue;
      this.queue.splice(i, 1);
      run.resolve({ kind: 'cancelled' });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    for (const run of this.queue.splice(0)) run.resolve({ kind: 'harness-error', message: 'the worker pool was closed' });
    const settings = { warm: this.warm && this.broken === undefined, boot: this.boot, maxHeapMb: this.maxHeapMb, recycleAfterRuns: this.recycleAfterRuns };
    await Promise.all(this.slots.map((slot) => {
      // One left warm by an earlier close() may serve another pool now; one a breakdown ended is waited for.
      if (slot.keptWarm === true) return undefined;
      if (slot.exiting) return slot.worker.terminate();
      slot.exiting = true;
      return leaveWarmOrEnd(slot, settings);
    }));
  }

  /**
   * The CPU each worker's thread has used so far, ms, in the order of the workers (undefined off
   * Linux, or for a worker gone before it answered): the bench's boot and warm-up per worker. Each
   * answers after the runs it was sent before.
   */
  threadCpuMs(): Promise<(number | undefined)[]> {
    if (this.broken || this.closed) return Promise.resolve(this.slots.map(() => undefined));
    return Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<number | undefined>((resolve) => {
            slot.cpuAsked.push(resolve);
            slot.worker.postMessage({ type: 'thread-cpu' } satisfies ToWorker);
          }),
      ),
    );
  }

  private spawn(): Slot {
    const graphFile = loadedGraph();
    const warm = this.warm ? takeWarm(warmKey({ boot: this.boot, maxHeapMb: this.maxHeapMb, graphFile })) : undefined;
    const heartbeat = warm?.heartbeat ?? newHeartbeat();
    const data: WorkerData = { heartbeat, maxHeapMb: this.maxHeapMb, durasimIndex: DURASIM_INDEX, ...(graphFile !== undefined ? { graphFile } : {}) };
    const worker = warm?.worker ?? startWorker(this.boot, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb + 64, maxYoungGenerationSizeMb: 48 }, stdout: true, stderr: true });
    if (warm) this.tookWarm++;
    else {
      // What journals print is not durasim's output; their behaviour is in the trace.
      worker.stdout.resume();
      if (process.env.DURASIM_DEBUG_WORKERS) worker.stderr.pipe(process.stderr); else worker.stderr.resume();
    }
    const slot: Slot = { worker, heartbeat, graphFile, loaded: new Set(), sent: [], runs: warm?.runs ?? 0, lastBeats: 0, lastBeatAtMs: wallMs(), startedAtMs: wallMs(), heapMb: 0, exiting: false, cpuAsked: [], loading: [] };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => this.onWorkerGone(slot, error));
    worker.on('exit', (exitCode) => this.onWorkerGone(slot, undefined, exitCode));
    // A journal still loading when the worker it was sent to went away is sent again here.
    for (const journalId of this.loads.keys()) this.ensureLoaded(slot, journalId);
    return slot;
  }

  private ensureLoaded(slot: Slot, journalId: number): void {
    if (slot.loaded.has(journalId)) return;
    const loading = this.bundles.get(journalId);
    if (!loading) return;
    slot.loaded.add(journalId);
    if (slot.sent.length === 0 && slot.loading.length === 0) {
      slot.lastBeats = beats(slot.heartbeat);
      slot.lastBeatAtMs = wallMs();
      slot.lastBeatCpuMs = undefined;
    }
    slot.loading.push(journalId);
    slot.worker.postMessage({ type: 'load', journalId, bundle: loading.bundle, environment: loading.environment } satisfies ToWorker);
  }

  private dispatch(): void {
    for (let depth = 1; depth <= PIPELINE; depth++) {
      for (const slot of this.slots) {
        if (this.queue.length === 0) return;
        if (slot.sent.length >= depth || slot.exiting) continue;
        const run = this.queue.shift() as PendingRun;
        if (slot.sent.length === 0) {
          slot.lastBeats = beats(slot.heartbeat);
          slot.lastBeatAtMs = wallMs();
          slot.lastBeatCpuMs = undefined;
        }
        slot.sent.push(run);
        this.ensureLoaded(slot, run.journalId);
        slot.worker.postMessage({ type: 'run', id: run.id, journalId: run.journalId, ...(run.generate ? { generate: run.generate } : { scenario: run.scenario }), ...run.request } satisfies ToWorker);
      }
    }
  }

  /** The worker's current run ended; runs it was sent but never started go back to the queue when it is replaced. */
  private finish(slot: Slot, outcome: RunOutcome): void {
    const run = slot.sent.shift();
    slot.runs++;
    slot.lastBeats = beats(slot.heartbeat);
    slot.lastBeatAtMs = wallMs();
    slot.lastBeatCpuMs = undefined;
    run?.resolve(outcome);
    if (!slot.exiting && (slot.runs >= this.recycleAfterRuns || slot.heapMb > this.maxHeapMb / 2 || slot.retire === true)) this.replace(slot);
    this.dispatch();
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    // A worker whose builtins the journal replaced is used no more: when its run is done (finish), or at once when idle —
    // after the message is handled, so a load it answers is no longer pending and its replacement does not load that journal again.
    const retire = 'retire' in message && message.retire === true;
    if (retire) slot.retire = true;
    this.handle(slot, message);
    if (retire && slot.sent.length === 0 && !slot.exiting) this.replace(slot);
  }

  private handle(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'loaded': {
        slot.loading = slot.loading.filter((id) => id !== message.journalId);
        const waiting = this.loads.get(message.journalId);
        this.loads.delete(message.journalId);
        waiting?.resolve({ journalId: message.journalId, name: message.name, loadEscapes: message.escapes, freshModules: message.readsWorldAtLoad });
        return;
      }
      case 'load-failed': {
        slot.loading = slot.loading.filter((id) => id !== message.journalId);
        const waiting = this.loads.get(message.journalId);
        this.loads.delete(message.journalId);
        if (waiting) waiting.reject(loadFailure(message, this.bundles.get(message.journalId)?.bundle.ref.spec));
        else if (slot.sent[0]?.journalId === message.journalId) {
          this.finish(slot, { kind: 'harness-error', message: `the journal loaded once and then failed to load in another worker: ${message.message}` });
        }
        return;
      }
      case 'result':
        if (slot.sent[0]?.id !== message.id) return;
        slot.heapMb = message.heapMb;
        // Judged here, where no journal code runs (runEvidence.ts).
        this.finish(slot, { kind: 'simulated', summary: judgedSummary(message.summary), ...(message.result ? { result: message.result } : {}), ...(message.again ? { again: { summary: judgedSummary(message.again.summary), ...(message.again.result ? { result: message.again.result } : {}) } } : {}), ...(message.rerun ? { rerun: message.rerun } : {}) });
        return;
      case 'out-of-memory':
        if (slot.sent[0]?.id !== message.id) return;
        this.abandon(slot, { kind: 'journal-out-of-memory', detail: message.detail });
        return;
      case 'thread-cpu':
        slot.cpuAsked.shift()?.(message.ms);
        return;
      case 'harness-error':
        if (slot.sent[0]?.id !== message.id) return;
        this.finish(slot, message.stack ? { kind: 'harness-error', message: message.message, stack: message.stack } : { kind: 'harness-error', message: message.message });
        return;
    }
  }

  /** A worker ended: by our hand (recycled, terminated by the watchdog: already replaced), by V8's heap limit, or by a crash. */
  private onWorkerGone(slot: Slot, error: (Error & { code?: string }) | undefined, exitCode?: number): void {
    // Gone before it was ready, not by our hand: its boot failed, and would in every worker started in its place.
    if (!slot.exiting && !this.closed && !isReady(slot.heartbeat)) return this.breakDown(bootFailure(this.boot, error ? { error } : { exitCode }, this.maxHeapMb + 64));
    const run = slot.sent.shift();
    this.queue.unshift(...slot.sent.splice(0));
    for (const asked of slot.cpuAsked.splice(0)) asked(undefined);
    if (this.slots.includes(slot) && !this.closed) this.replace(slot);
    if (run && error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      run.resolve({ kind: 'journal-out-of-memory', detail: `the journal's heap passed V8's limit of ${this.maxHeapMb + 64} MB (--max-heap ${this.maxHeapMb})` });
    } else if (run) {
      run.resolve({ kind: 'harness-error', message: `a worker thread ended unexpectedly${error ? `: ${error.message}` : ''}` });
    }
    this.dispatch();
  }

  /** A worker could not boot: every load waiting rejects with `failure`, every run queued or sent ends with it, every worker stops. */
  private breakDown(failure: OwnFailure): void {
    if (this.broken) return;
    this.broken = failure;
    clearInterval(this.watchdog);
    for (const waiting of this.loads.values()) waiting.reject(failure);
    this.loads.clear();
    const runs = [...this.queue.splice(0), ...this.slots.flatMap((slot) => slot.sent.splice(0))];
    for (const slot of this.slots) {
      for (const asked of slot.cpuAsked.splice(0)) asked(undefined);
      if (slot.exiting) continue;
      slot.exiting = true;
      void slot.worker.terminate();
    }
    for (const run of runs) run.resolve({ kind: 'harness-error', message: failure.message });
  }

  /** Terminates a worker and puts a fresh one in its place; every run still sent to it goes back to the front of the queue. */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1 && !this.closed && !this.broken) this.slots[index] = this.spawn();
    if (slot.exiting) return;
    slot.exiting = true;
    this.queue.unshift(...slot.sent.splice(0));
    void slot.worker.terminate();
  }

  /** Ends the worker's current run with `outcome` and replaces the worker. */
  private abandon(slot: Slot, outcome: RunOutcome): void {
    const run = slot.sent.shift();
    this.replace(slot);
    run?.resolve(outcome);
    this.dispatch();
  }

  private watch(): void {
    const now = wallMs();
    for (const { slot, detail } of overMemoryBudget(this.slots, this.maxHeapMb, now, WATCHDOG_MS)) this.abandon(slot, { kind: 'journal-out-of-memory', detail });
    for (const slot of this.slots) {
      if ((slot.sent.length === 0 && slot.loading.length === 0) || slot.exiting) continue;
      // A worker booting, or compiling a journal and loading durasim's modules for it, runs durasim's own code (ownWorkRule.ts).
      const own = ownWorkLook(slot, now, { bootTimeoutMs: this.bootTimeoutMs, boot: this.boot, maxHeapMb: this.maxHeapMb });
      if (own instanceof OwnFailure) return this.breakDown(own);
      if (own === 'own') continue;
      const seen = beats(slot.heartbeat);
      const tid = threadIdOf(slot.heartbeat);
      const cpuMs = tid === undefined ? undefined : threadCpuMsOf(tid);
      if (seen !== slot.lastBeats) {
        slot.lastBeats = seen;
        slot.lastBeatAtMs = now;
        slot.lastBeatCpuMs = cpuMs;
        continue;
      }
      if (slot.lastBeatCpuMs === undefined) slot.lastBeatCpuMs = cpuMs;
      const held = hangVerdict({ hangTimeoutMs: this.hangTimeoutMs, nowMs: now, lastBeatAtMs: slot.lastBeatAtMs, cpuMs, lastBeatCpuMs: slot.lastBeatCpuMs });
      if (held === undefined) continue;
      const at = blockedAt(slot.heartbeat);
      const detail = `the journal's code kept the thread ${describeBlockedAt(at)} ${held} without returning to the event loop (an endless loop, or a promise chain that never yields?)`;
      // A load that never returned: its module's top level holds the thread (the load's own pulse stopped).
      for (const journalId of slot.loading) {
        const waiting = this.loads.get(journalId);
        this.loads.delete(journalId);
        waiting?.reject(new DurasimError('load the journal', `evaluating ${this.bundles.get(journalId)?.bundle.ref.spec ?? 'it'} kept its thread ${held} without returning to the event loop (an endless loop at the module's top level, or a promise chain that never yields?)`, 'Fix the module so it evaluates on its own'));
      }
      slot.loading = [];
      this.abandon(slot, { kind: 'journal-blocked', at, detail });
    }
  }
}
