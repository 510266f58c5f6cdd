/**
 * World: the scheduler of worker processes, and the owner of everything they touch.
 *
 * - Workers are async tasks. Every env call and every asynchronous Node call served from the world
 *   (node/served/) is a step, queued until the scheduler grants it; among ready workers (by pid) the
 *   scenario's schedule choices pick, a missing choice the lowest pid; what a granted step does is
 *   grantStep.ts. A synchronous served call is an atomic step at once (atomicStep.ts).
 * - After a grant the worker runs (turns.ts) until its next step, an idle wait on a timer, or its
 *   exit. Virtual time advances only when no worker is ready (discrete events).
 * - A crash { process, incarnation, step, when } kills that incarnation before or after the step:
 *   its pending promises never settle and its later calls are refused (they never settle either).
 *   keep-all kills one worker; the other modes are machine crashes that kill every live worker and
 *   drop volatile disk state. Killed workers restart after restartDelayMs as fresh incarnations; a
 *   worker that exits with an error (or process.exit(n), n ≠ 0) restarts the same way.
 * - Every incarnation may get a fresh instance of the journal's modules (`fresh`), as a restarted
 *   process would; inspect() reads through its own (inspection.ts), on the durable image after
 *   every step that changed it, at every crash and at the end (the observed histories).
 * - Bounds: global steps, incarnations per worker, virtual time. Running out is a liveness outcome,
 *   never a hang; so is a deadlock, and a stall (awaiting something outside the simulated world).
 * - A broken simulator invariant stops the run and is rethrown by run(), never seen by the journal.
 * How a process ends is processEnd.ts; a crash, crashProcess.ts; the trace the world writes,
 * recorder.ts; what simulate() hands the world, worldOptions.ts.
 */
import { errorText } from './errorText.js';
import type { DurabilityGap, Records } from '../../model/evidence.js';
import type { Env, JournalAdapter, Task } from '../../model/contract/contract.js';
import { atVirtualTime, callOfTurn, escapeReason, outsideTurn, ownThrown, runAsCall, runAsTurn, type Escape } from '../sandbox/ambientGuard.js';
import type { Timer } from './clock.js';
import { Disk } from '../disk/disk.js';
import { DiskLane } from '../disk/diskLane.js';
import type { MarkedDiskCall } from '../disk/diskCallLog.js';
import { Inspection } from './inspection.js';
import { SimulatorInvariantError } from '../invariant.js';
import { Network } from '../service/network.js';
import { Proc, type Outcome, type PendingStep, type ProcHooks } from './proc.js';
import { grantStep } from './grantStep.js';
import { fireScenarioEvent } from './fireScenarioEvent.js';
import type { CrashRecord, ExitRecord, StopReason } from './runRecords.js';
import { ScenarioEvents, storeCallFaults } from '../scenario/scenarioEvents.js';
import { serviceUrlOf, taskFor, taskPaths, WORK_DIR, type CrashFault, type Scenario } from '../scenario/scenario.js';
import { describeServiceEvent, ServiceCore, type ServiceEvent } from '../service/service.js';
import { StoreCore } from '../store/store.js';
import { STALL_TURNS_TEXT, Turns } from './turns.js';
import type { CrashHost, EventHost, StepHost } from './host.js';
import { errorCode } from './trace.js';
import { Recorder } from './recorder.js';
import { boundsInForce, type BoundsInForce } from '../scenario/scenarioBounds.js';
import { boundStop } from './boundStop.js';
import { endByUncaught, endIfQuiet, exitByCall, exitProcess, killProcess, naturalEnd, quietEnding } from './processEnd.js';
import { crashProcess } from './crashProcess.js';
import type { WorldOptions } from './worldOptions.js';

/** The first format in which a concurrent call holds the turn from its start (before it, it ran only when something else quiesced the world). */
export const CALL_RUNS_AT_ONCE_VERSION = 3;

export class World extends Recorder implements StepHost, EventHost, CrashHost {
  readonly disk: Disk;
  readonly service: ServiceCore;
  readonly network: Network;
  readonly store: StoreCore;
  readonly procs: Proc[] = [];
  readonly crashes: CrashRecord[] = [];
  readonly exits: ExitRecord[] = [];
  readonly escapes: Escape[] = [];
  readonly userEdits: { seq: number; timeMs: number; path: string; text: string }[] = [];
  readonly strayRequests: { seq: number; sender: string; method: string; url: string }[] = [];
  /** Per request index: the durable records when it arrived; for a write whose record was not durable yet, what only the page cache held. */
  readonly arrivals = new Map<number, { records: Records; unsynced?: string[]; gaps?: DurabilityGap[] }>();
  stop: StopReason | null = null;
  /** The bounds this run is held to: the scenario's, grown with what its faults ask of virtual time (scenario/scenarioBounds.ts). */
  readonly bounds: BoundsInForce;
  /** A broken simulator invariant: the run stops and run() rethrows it. */
  internalError: Error | null = null;
  globalStep = 0;
  randomDraws = 0;
  incarnationsStarted = 0;
  private decisions = 0;
  readonly turns = new Turns(this.procs, () => this.stalled(), (proc) => endIfQuiet(this, proc), quietEnding);
  private readonly events: ScenarioEvents;
  private readonly procHooks: ProcHooks = {
    // Called from the journal's code (its context): what they do is the world's own work.
    escape: (proc, api) => outsideTurn(() => this.recordEscape(proc, api)),
    exit: (proc, code) => outsideTurn(() => exitByCall(this, proc, code)),
    output: (proc, stream, text) => outsideTurn(() => this.recordOutput(proc, stream, text)),
    serve: (proc, api, args, thisArg, newTarget, real) => this.options.serve({ world: this, proc, call: callOfTurn() }, api, args, thisArg, newTarget, real),
  };
  /** The journal's inspect() on the disk's images, and the observed histories built from them. */
  readonly inspection: Inspection;
  /** The files the task edits or the user saves: the judge reads them at every crash and at the end. */
  readonly paths: string[];
  readonly diskCalls?: MarkedDiskCall[]; // see WorldOptions.diskCalls
  /** The instance of the journal's modules the incarnations run when they are not evaluated afresh each (see WorldOptions.perRun). */
  private readonly runJournal: JournalAdapter;

  constructor(
    readonly journal: JournalAdapter,
    readonly scenario: Scenario,
    private readonly options: WorldOptions,
  ) {
    super(options.outputText);
    this.disk = atVirtualTime(this.clock.epochMs, () => new Disk(WORK_DIR, scenario.files));
    this.paths = taskPaths(scenario);
    this.bounds = boundsInForce(scenario);
    this.service = new ServiceCore(scenario.service, scenario.faults.filter((f) => f.kind === 'response'), this.clock, (event) => this.onServiceEvent(event));
    this.network = new Network(this.service, serviceUrlOf(scenario), options.transport);
    this.store = new StoreCore(scenario.store, storeCallFaults(scenario.faults), () => this.clock.epochMs);
    this.events = new ScenarioEvents(scenario.faults);
    this.inspection = new Inspection(journal, options.fresh ?? options.perRun, this.disk, this.store, scenario.environment, (api) => this.recordEscape(null, api), () => this.clock.epochMs, options.inspectServe);
    // A run's own instance of the journal's modules (perRun): the one inspect() evaluated, shared by the incarnations.
    this.runJournal = options.fresh === undefined && options.perRun !== undefined ? this.inspection.instance : journal;
    if (options.diskCalls) {
      const calls: MarkedDiskCall[] = (this.diskCalls = []);
      // The step making the call is the last worker step traced (its line is written before it runs).
      this.disk.callLog = (call) => {
        const step = this.trace.findLast((e) => e.step !== undefined && e.actor.startsWith('worker-') && !e.op.endsWith(':result'));
        calls.push({ mark: step ? `${step.actor}#${step.incarnation ?? 0} step ${step.step} ${step.op}` : '', call });
      };
      this.stepCalls = {};
    }
    if (options.diskLane) this.diskLane = new DiskLane(() => outsideTurn(() => atVirtualTime(this.clock.epochMs, () => this.disk.fileStates())));
  }

  observeDurable(): void {
    this.inspection.observeDurable(this.trace.length - 1);
  }

  async run(): Promise<StopReason> {
    this.spawn(0, 0);
    await this.turns.quiesce();
    while (this.stop === null) {
      this.options.beat?.(this.globalStep, undefined, '');
      this.inspection.observeDurable(this.trace.length - 1);
      this.fireEventsDue();
      if (this.stop !== null) break;
      if (this.turns.anyRunning || this.turns.busyOutside) await this.turns.quiesce();
      // A port's messages are ready at once (no thread pool, no wire): delivered before any step is granted.
      const messages = this.clock.takeSoonDue();
      if (messages.length > 0) {
        for (const message of messages) {
          message.fire();
          await this.turns.drainListeners();
          await this.turns.quiesce();
          if (this.stop !== null) break;
        }
        continue;
      }
      const ready = this.turns.readyCount();
      if (ready > 0) {
        if (this.globalStep >= this.bounds.maxSteps) {
          this.halt(boundStop(this.bounds, 'steps', `${this.globalStep} steps taken`, this.scenario.version, `${this.globalStep} steps taken, the bound is ${this.bounds.maxSteps}`));
          break;
        }
        const chosen = this.turns.readyAt(ready > 1 ? (this.scenario.schedule[this.decisions] ?? 0) % ready : 0);
        // A fault anchored just before this step fires first; then the scheduler looks again (format 3's anchors).
        const next = this.events.anchorsPending ? chosen.pending[0] : undefined;
        const due = next && this.events.dueBefore(next.op, next.detail);
        if (due) {
          fireScenarioEvent(this, due);
          continue;
        }
        if (ready > 1) this.decisions++;
        await grantStep(this, chosen);
        continue;
      }
      const due = this.clock.nextDueMs();
      if (due !== undefined) {
        if (due > this.bounds.maxVirtualTimeMs) {
          this.halt(boundStop(this.bounds, 'virtual-time', `the next event is at ${due} ms`, this.scenario.version, `the next event is at ${due} ms, the bound is ${this.bounds.maxVirtualTimeMs} ms`));
          break;
        }
        for (const timer of this.clock.advance()) {
          timer.fire();
          await this.turns.drainListeners();
          await this.turns.quiesce();
          if (this.stop !== null) break;
        }
        continue;
      }
      const leftOver = this.events.nextLeftOver();
      if (leftOver) {
        fireScenarioEvent(this, leftOver);
        await this.turns.quiesce();
        continue;
      }
      const waiting = this.procs.filter((p) => p.alive && !p.done);
      if (waiting.length === 0) this.halt({ kind: 'completed' });
      else this.halt({ kind: 'deadlock', detail: `${waiting.map((p) => `${p.name} waits on ${[...p.inFlight.values()].map((s) => `${s.op} ${s.detail}`).join(', ') || 'nothing the simulation knows of'}`).join('; ')}, and nothing is left that could wake it (a lost response with no timeout?)` });
    }
    this.turns.close();
    if (this.internalError) throw this.internalError;
    return this.stop as StopReason;
  }

  halt(reason: StopReason): void {
    if (this.stop !== null) return;
    this.stop = reason;
    this.record({ actor: 'supervisor', op: 'stop', detail: reason.kind === 'completed' ? 'completed' : `${reason.kind}: ${reason.detail}` });
  }

  /** Queues an env call of `proc`; it runs when granted. A dead process's calls never settle. */
  step<T>(proc: Proc, op: string, detail: string, start: PendingStep['start']): Promise<T> {
    if (!proc.alive || proc.done) return new Promise<T>(() => {});
    const promise = new Promise<T>((resolve, reject) => {
      proc.pending.push({ op, detail, start, resolve: resolve as (value: unknown) => void, reject, call: callOfTurn() });
    });
    this.turns.yielded(proc);
    return promise;
  }

  /** The scenario's faults at `proc`'s step `step` (the access is counted for anchored faults). */
  faultsFor(proc: Proc, step: number, op: string, detail: string): ReturnType<ScenarioEvents['faultsAt']> {
    this.events.countAccess(op, detail);
    this.events.countStep(op, detail);
    return this.events.faultsAt(proc.pid, proc.incarnation, step, op, detail);
  }

  beat(globalStep: number, proc: Proc | undefined, op: string): void { this.options.beat?.(globalStep, proc, op); }

  /** Whether the run is cut as global step `globalStep` completes (WorldOptions.cutAfterStep): if so, it stops here, every worker with it. */
  cutsAfter(globalStep: number): boolean {
    if (this.options.cutAfterStep !== globalStep) return false;
    this.haltAll({ kind: 'bounds-exceeded', bound: 'steps', limit: globalStep + 1, detail: `cut after global step ${globalStep}, where the journal blocked its thread` });
    return true;
  }

  /** The run stops here, with every live worker. */
  haltAll(reason: StopReason): void {
    this.halt(reason);
    for (const proc of this.procs) if (proc.alive && !proc.done) killProcess(this, proc);
    this.turns.stopAll();
  }

  /** A step that completes at once with `run()`'s value, or its error (the disk stamps virtual time). */
  syncStep<T>(proc: Proc, op: string, detail: string, run: () => T): Promise<T> {
    return this.step<T>(proc, op, detail, (complete) => {
      let outcome: Outcome<unknown>;
      try {
        outcome = { ok: true, value: atVirtualTime(this.clock.epochMs, run) };
      } catch (error) {
        if (error instanceof SimulatorInvariantError) return this.fail(error);
        outcome = { ok: false, error, note: errorCode(error) };
      }
      complete(outcome);
    });
  }

  /** A timer owned by `proc`: cancelled if it dies. */
  procTimer(proc: Proc, delayMs: number, label: string, fire: () => void, soon = false): Timer {
    // A gone process sets no timer: nothing of it may wake, or keep the world from seeing a deadlock.
    if (!proc.alive || proc.done) return { atMs: Number.POSITIVE_INFINITY, seq: -1, label, fire: () => {}, cancelled: true };
    const timer = this.clock.at(delayMs, label, () => {
      proc.timers.delete(timer);
      fire();
    }, soon);
    proc.timers.add(timer);
    return timer;
  }

  /** A simulator invariant broke: stop the run; run() rethrows it. The journal never sees it. */
  fail(error: SimulatorInvariantError): void {
    this.internalError ??= error;
    this.haltAll({ kind: 'deadlock', detail: 'the simulator stopped: an internal invariant broke' });
  }

  /** A worker awaited something outside the simulated world for STALL_TURNS event-loop turns: stop the run. */
  private stalled(): void {
    const stuck = this.procs.filter((p) => p.running);
    this.halt({ kind: 'stalled', detail: `${stuck.map((p) => p.name).join(', ')} awaited something outside the simulated world for ${STALL_TURNS_TEXT} event-loop turns: a promise that never settles?` });
    for (const proc of stuck) killProcess(this, proc);
    this.turns.stopAll();
  }

  spawn(pid: number, incarnation: number): void {
    const proc = new Proc(this.procHooks, pid, incarnation, this.scenario.environment, WORK_DIR, this.clock.nowMs);
    this.procs[pid] = proc;
    this.incarnationsStarted++;
    this.record({ actor: 'supervisor', op: 'start', detail: proc.name });
    this.options.beat?.(this.globalStep, proc, 'start');
    const task = taskFor(this.scenario, incarnation);
    this.turns.resume(proc);
    const env = this.options.makeEnv(this, proc);
    proc.env = env;
    // Everything the incarnation's code does, now and in every continuation, is its own (sandbox/turn.ts).
    this.startRun(proc, env, task, () => {
      // A fresh process loads its modules afresh: module-level state dies with every crash.
      proc.journal = this.options.fresh ? this.options.fresh() : this.runJournal;
      return proc.journal as JournalAdapter;
    });
  }

  /** One call of the journal's run() in `proc`: the process ends when the last call returned, or at the first that threw. */
  private startRun(proc: Proc, env: Env, task: Task, journalOf: () => JournalAdapter, second = false): void {
    proc.runsUnderWay++;
    // Each call of run() is code of its own call (sandbox/turn.ts runAsCall): the first 0, the next 1…
    const call = proc.callsStarted++;
    const result = runAsCall(call, () => runAsTurn(proc, (): Promise<void> => {
      try {
        return Promise.resolve(journalOf().run(env, task));
      } catch (error) {
        return Promise.reject(error);
      }
    }));
    result.then(
      () => {
        if (--proc.runsUnderWay === 0) naturalEnd(this, proc);
      },
      (thrown: unknown) => {
        // What it threw, read as its own code (sandbox/ownThrown.ts).
        const error = runAsTurn(proc, () => ownThrown(thrown));
        // A second call that fails is that request's answer, as a server's or an engine's: the process goes on.
        if (second && proc.alive && !proc.done) {
          this.record({ actor: 'supervisor', op: 'call-failed', detail: `${proc.name}'s second call of run() failed: ${errorText(error)}; the process goes on` });
          if (--proc.runsUnderWay === 0) naturalEnd(this, proc);
          return;
        }
        exitProcess(this, proc, error ?? new Error('the journal rejected with no reason'));
      },
    );
  }

  /**
   * A concurrent-call: the task reaches worker `pid`'s running incarnation again, as a second call
   * of run() in the same process — the same journal instance (module memory), the same env (one
   * per process, as a server's), pid and incarnation. A worker that is not running (dead, finished, ending) gets nothing.
   */
  callAgain(pid: number): void {
    const proc = this.procs[pid];
    if (proc === undefined || !proc.alive || proc.done || proc.ending !== false || proc.journal === undefined) {
      this.record({ actor: 'supervisor', op: 'concurrent-call', detail: `the task reaches worker-${pid} again, but it is not running: nothing happens` });
      return;
    }
    this.record({ actor: 'supervisor', op: 'concurrent-call', detail: `the task reaches ${proc.name} again: a second call of run() in the same process, its module memory shared` });
    // The call's code runs now, as the process's event loop would run it, before the clock may move (format 3 on).
    if (this.scenario.version >= CALL_RUNS_AT_ONCE_VERSION) this.turns.resume(proc);
    this.startRun(proc, proc.env as Env, taskFor(this.scenario, proc.incarnation), () => proc.journal as JournalAdapter, true);
  }

  /** An unhandled rejection or uncaught exception: it ends the incarnation that last ran, as it would end a process. */
  uncaught(error: unknown, origin: 'uncaughtException' | 'unhandledRejection' = 'uncaughtException'): void {
    outsideTurn(() => endByUncaught(this, error, origin));
  }

  /** `fault` strikes `proc` now (a process kill or a machine crash): crashProcess.ts. */
  crash(proc: Proc, fault: CrashFault): void {
    crashProcess(this, proc, fault, this.options.crashDigests === true);
  }

  /** `proc` restarts as its next incarnation after the scenario's restartDelayMs, within the bound. */
  scheduleRestart(proc: Proc): void {
    const next = proc.incarnation + 1;
    if (next >= this.bounds.maxIncarnations) {
      this.halt(boundStop(this.bounds, 'incarnations', `worker-${proc.pid} would start incarnation ${next}`, this.scenario.version, `worker-${proc.pid} would start incarnation ${next}, the bound is ${this.bounds.maxIncarnations}`));
      return;
    }
    this.clock.at(this.scenario.restartDelayMs, `restart worker-${proc.pid}`, () => this.spawn(proc.pid, next));
  }

  private fireEventsDue(): void {
    for (let fault = this.events.nextDue(this.globalStep); fault && this.stop === null; fault = this.events.nextDue(this.globalStep)) fireScenarioEvent(this, fault);
  }

  private onServiceEvent(event: ServiceEvent): void {
    if (event.kind === 'commit') event.effect.seq = this.trace.length;
    this.record({ actor: 'service', ...describeServiceEvent(event, this.scenario.service.idempotencyMemory) });
  }

  /** A guarded call of code no simulated process was running (sandbox/turn.ts), charged to this run. */
  recordNoTurnEscape(escape: Escape): void {
    this.escapes.push(escape);
    this.record({ actor: 'sandbox', op: 'escape', detail: `${escape.api}: ${escape.message}` });
  }

  recordEscape(proc: Proc | null, api: string): Escape {
    const escape: Escape = { api, pid: proc?.pid ?? -1, incarnation: proc?.incarnation ?? 0, message: escapeReason(api) };
    this.escapes.push(escape);
    this.record({ ...(proc ? { actor: `worker-${proc.pid}`, incarnation: proc.incarnation } : { actor: 'inspect' }), op: 'escape', detail: `${api}: ${escape.message}` });
    return escape;
  }

  /** The journal's records as its inspect() reads them from the durable or the visible image. */
  inspect(image: 'durable' | 'visible'): Records {
    this.options.beat?.(this.globalStep, undefined, 'inspect');
    return this.inspection.read(image);
  }

  peekVisible(): Records | undefined {
    this.options.beat?.(this.globalStep, undefined, 'inspect');
    return this.inspection.peek();
  }
}
