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
 */
import type { DurabilityGap, Records } from '../../model/evidence.js';
import type { Env, JournalAdapter, Task } from '../../model/contract/contract.js';
import { atVirtualTime, escapeReason, outsideTurn, runAsTurn, type Escape } from '../sandbox/ambientGuard.js';
import { VirtualClock, type Timer } from './clock.js';
import { Disk } from '../disk/disk.js';
import { maskSecrets } from '../../model/contract/secret.js';
import { DiskLane } from '../disk/diskLane.js';
import type { MarkedDiskCall } from '../disk/diskCallLog.js';
import { filesOn, Inspection } from './inspection.js';
import { SimulatorInvariantError } from '../invariant.js';
import { Network, type Transport } from '../service/network.js';
import { Proc, type Outcome, type PendingStep, type ProcHooks } from './proc.js';
import { grantStep } from './grantStep.js';
import { fireScenarioEvent } from './fireScenarioEvent.js';
import { describeLoss, gapsOf } from '../disk/crashReport.js';
import type { CrashRecord, ExitRecord, StopReason } from './runRecords.js';
import { ScenarioEvents } from '../scenario/scenarioEvents.js';
import { SERVICE_URL, taskFor, taskPaths, WORK_DIR, type CrashFault, type Scenario } from '../scenario/scenario.js';
import { describeServiceEvent, ServiceCore, type ServiceEvent } from '../service/service.js';
import { StoreCore } from '../store/store.js';
import { STALL_TURNS_TEXT, Turns } from './turns.js';
import type { EventHost, StepHost } from './host.js';
import { errorCode, rel, type TraceEntry } from './trace.js';

/** Whether an ending process has nothing left of what its 'beforeExit' listeners started: no step queued or under way, no timer of theirs. */
export function quietEnding(proc: Proc): boolean {
  const left = proc.ending;
  return left !== false && proc.pending.length === 0 && proc.inFlight.size === 0 && [...proc.timers].every((t) => left.has(t));
}

/** Console output a run keeps in its trace: per write, and in all. */
export const OUTPUT_ENTRY_CHARS_MAX = 2_000;
export const OUTPUT_RUN_CHARS_MAX = 64_000;

export interface WorldOptions {
  transport: Transport;
  /** The env object an incarnation's run() is handed (node/simEnv.ts). */
  makeEnv: (world: StepHost, proc: Proc) => Env;
  /** The world's answer to a Node API the journal called (node/served/), or NOT_SERVED. */
  serve: (ctx: { world: StepHost; proc: Proc }, api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown) => unknown;
  /** A fresh instance of the journal's modules, evaluated at every incarnation's start. */
  fresh?: () => JournalAdapter;
  /** Without `fresh`: an instance of the journal's modules for this run alone, shared by its incarnations and inspect(). */
  perRun?: () => JournalAdapter;
  /** Called at every scheduling decision: a sign of life for a watchdog outside the simulation. */
  beat?: (globalStep: number, proc: Proc | undefined, op: string) => void;
  diskLane?: boolean; // note the files, visible and durable, after each entry that changed them (diskLane.ts)
  diskCalls?: boolean; // log what the journal's calls change on the disk, with the worker step making them (diskCallLog.ts)
  crashDigests?: boolean; // take a digest of the whole disk right after every crash (CrashRecord.imageDigest)
  outputText?: (text: string) => string; // how the journal's console output is written down (SimulateOptions.outputText)
}

export class World implements StepHost, EventHost {
  readonly clock = new VirtualClock();
  readonly trace: TraceEntry[] = [];
  masksSecrets = false; // with a task that carries an access token: the trace and the exit messages show it masked
  readonly disk: Disk;
  readonly service: ServiceCore;
  readonly network: Network;
  readonly store: StoreCore;
  readonly procs: Proc[] = [];
  readonly crashes: CrashRecord[] = [];
  readonly exits: ExitRecord[] = [];
  readonly escapes: Escape[] = [];
  readonly userEdits: { seq: number; timeMs: number; path: string; text: string }[] = [];
  /** Per request index: the durable records when it arrived; for a write whose record was not durable yet, what only the page cache held. */
  readonly arrivals = new Map<number, { records: Records; unsynced?: string[]; gaps?: DurabilityGap[] }>();
  /** Every byte the journal wrote or sent, tagged with its trace position (the trace shows previews; its hash covers these). */
  readonly payload: (string | Uint8Array)[] = [];
  stop: StopReason | null = null;
  /** A broken simulator invariant: the run stops and run() rethrows it. */
  internalError: Error | null = null;
  globalStep = 0;
  randomDraws = 0;
  incarnationsStarted = 0;
  private decisions = 0;
  /** Characters of console output kept in this run's trace so far (recordOutput). */
  private outputChars = 0;
  readonly turns = new Turns(this.procs, () => this.stalled(), (proc) => this.endIfQuiet(proc), quietEnding);
  private readonly events: ScenarioEvents;
  private readonly procHooks: ProcHooks = {
    // Called from the journal's code (its context): what they do is the world's own work.
    escape: (proc, api) => outsideTurn(() => this.recordEscape(proc, api)),
    exit: (proc, code) => outsideTurn(() => this.exitByCall(proc, code)),
    output: (proc, stream, text) => outsideTurn(() => this.recordOutput(proc, stream, text)),
    serve: (proc, api, args, thisArg, newTarget, real) => this.options.serve({ world: this, proc }, api, args, thisArg, newTarget, real),
  };
  /** The journal's inspect() on the disk's images, and the observed histories built from them. */
  readonly inspection: Inspection;
  /** The files the task edits or the user saves: the judge reads them at every crash and at the end. */
  readonly paths: string[];
  readonly diskLane?: DiskLane; // see WorldOptions.diskLane
  readonly diskCalls?: MarkedDiskCall[]; // see WorldOptions.diskCalls
  /** The instance of the journal's modules the incarnations run when they are not evaluated afresh each (see WorldOptions.perRun). */
  private readonly runJournal: JournalAdapter;

  constructor(
    readonly journal: JournalAdapter,
    readonly scenario: Scenario,
    private readonly options: WorldOptions,
  ) {
    this.disk = atVirtualTime(this.clock.epochMs, () => new Disk(WORK_DIR, scenario.files));
    this.paths = taskPaths(scenario);
    this.service = new ServiceCore(scenario.service, scenario.faults.filter((f) => f.kind === 'response'), this.clock, (event) => this.onServiceEvent(event));
    this.network = new Network(this.service, SERVICE_URL, options.transport);
    this.store = new StoreCore(scenario.store, new Map(scenario.faults.flatMap((f) => (f.kind === 'store-call' ? [[f.call, f.fault] as const] : []))), () => this.clock.epochMs);
    this.events = new ScenarioEvents(scenario.faults);
    this.inspection = new Inspection(journal, options.fresh ?? options.perRun, this.disk, this.store, scenario.environment, (api) => this.recordEscape(null, api), () => this.clock.epochMs);
    // A run's own instance of the journal's modules (perRun): the one inspect() evaluated, shared by the incarnations.
    this.runJournal = options.fresh === undefined && options.perRun !== undefined ? this.inspection.instance : journal;
    if (options.diskCalls) {
      const calls: MarkedDiskCall[] = (this.diskCalls = []);
      // The step making the call is the last worker step traced (its line is written before it runs).
      this.disk.callLog = (call) => {
        const step = this.trace.findLast((e) => e.step !== undefined && e.actor.startsWith('worker-') && !e.op.endsWith(':result'));
        calls.push({ mark: step ? `${step.actor}#${step.incarnation ?? 0} step ${step.step} ${step.op}` : '', call });
      };
    }
    if (options.diskLane) this.diskLane = new DiskLane(() => outsideTurn(() => atVirtualTime(this.clock.epochMs, () => this.disk.fileStates())));
  }

  async run(): Promise<StopReason> {
    this.spawn(0, 0);
    await this.turns.quiesce();
    while (this.stop === null) {
      this.options.beat?.(this.globalStep, undefined, '');
      this.inspection.observeDurable(this.trace.length - 1);
      this.fireEventsDue();
      if (this.stop !== null) break;
      if (this.turns.anyRunning) await this.turns.quiesce();
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
      const ready = this.readyCount();
      if (ready > 0) {
        if (this.globalStep >= this.scenario.bounds.maxSteps) {
          this.halt({ kind: 'bounds-exceeded', bound: 'steps', detail: `${this.globalStep} steps taken, the bound is ${this.scenario.bounds.maxSteps}` });
          break;
        }
        const choice = ready > 1 ? (this.scenario.schedule[this.decisions++] ?? 0) % ready : 0;
        await grantStep(this, this.readyAt(choice));
        continue;
      }
      const due = this.clock.nextDueMs();
      if (due !== undefined) {
        if (due > this.scenario.bounds.maxVirtualTimeMs) {
          this.halt({ kind: 'bounds-exceeded', bound: 'virtual-time', detail: `the next event is at ${due} ms, the bound is ${this.scenario.bounds.maxVirtualTimeMs} ms` });
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

  /** How many workers have a step queued (counted, not collected: this runs before every decision). */
  private readyCount(): number {
    let ready = 0;
    for (const proc of this.procs) if (proc.alive && !proc.done && proc.pending.length > 0) ready++;
    return ready;
  }

  /** The `choice`-th worker with a step queued, lowest pid first. */
  private readyAt(choice: number): Proc {
    let seen = 0;
    for (const proc of this.procs) if (proc.alive && !proc.done && proc.pending.length > 0 && seen++ === choice) return proc;
    throw new SimulatorInvariantError(`no ready worker at choice ${choice}`);
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
      proc.pending.push({ op, detail, start, resolve: resolve as (value: unknown) => void, reject });
    });
    this.turns.yielded(proc);
    return promise;
  }

  /** The scenario's faults at `proc`'s step `step` (the access is counted for anchored faults). */
  faultsFor(proc: Proc, step: number, op: string, detail: string): ReturnType<ScenarioEvents['faultsAt']> {
    this.events.countAccess(op, detail);
    return this.events.faultsAt(proc.pid, proc.incarnation, step, op, detail);
  }

  beat(globalStep: number, proc: Proc | undefined, op: string): void { this.options.beat?.(globalStep, proc, op); }

  /** The run stops here, with every live worker. */
  haltAll(reason: StopReason): void {
    this.halt(reason);
    for (const proc of this.procs) if (proc.alive && !proc.done) this.kill(proc);
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
    for (const proc of stuck) this.kill(proc);
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
    const result = runAsTurn(proc, (): Promise<void> => {
      try {
        return Promise.resolve(journalOf().run(env, task));
      } catch (error) {
        return Promise.reject(error);
      }
    });
    result.then(
      () => {
        if (--proc.runsUnderWay === 0) this.naturalEnd(proc);
      },
      (error: unknown) => {
        // A second call that fails is that request's answer, as a server's or an engine's: the process goes on.
        if (second && proc.alive && !proc.done) {
          this.record({ actor: 'supervisor', op: 'call-failed', detail: `${proc.name}'s second call of run() failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}; the process goes on` });
          if (--proc.runsUnderWay === 0) this.naturalEnd(proc);
          return;
        }
        this.exit(proc, error ?? new Error('the journal rejected with no reason'));
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
    this.startRun(proc, proc.env as Env, taskFor(this.scenario, proc.incarnation), () => proc.journal as JournalAdapter, true);
  }

  /**
   * run() has returned: the process ends (what it left pending dies with it, as the simulator has
   * always ended a process), after its 'beforeExit' listeners ran (once): what they start runs on,
   * and the process ends when nothing it started is left (turns.ts).
   */
  private naturalEnd(proc: Proc): void {
    if (!proc.alive || proc.done || proc.ending) return;
    const left = new Set(proc.timers);
    const before = { pending: proc.pending.length, inFlight: proc.inFlight.size };
    if (!this.runListeners(proc, 'beforeExit', 0)) return;
    if (proc.pending.length > before.pending || proc.inFlight.size > before.inFlight || [...proc.timers].some((t) => !left.has(t))) proc.ending = left;
    else this.exit(proc, undefined);
  }

  /** The process is ending and nothing its 'beforeExit' listeners started is left: it ends (a timer run() left behind dies with it). */
  endIfQuiet(proc: Proc): void {
    if (proc.alive && !proc.done && quietEnding(proc)) this.exit(proc, undefined);
  }

  /**
   * Runs the journal's listeners for `event` on its simulated process, as its own code; false when
   * the process did not live through them (a crash at a step they took, or process.exit()).
   */
  private runListeners(proc: Proc, event: 'beforeExit' | 'exit', code: number): boolean {
    const listeners = proc.simulated.listeners?.get(event);
    if (listeners === undefined || listeners.length === 0) return true;
    this.record({ actor: 'supervisor', op: event, detail: `${proc.name}: ${listeners.length} '${event}' listener(s) run (code ${code})` });
    for (const listener of [...listeners]) {
      if (listener.once) listeners.splice(listeners.indexOf(listener), 1);
      try {
        runAsTurn(proc, () => listener.fn.call(process, code));
      } catch (error) {
        if (!proc.alive || proc.done) return false;
        this.record({ actor: 'supervisor', op: event, detail: `${proc.name}: a '${event}' listener threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` });
      }
      if (!proc.alive || proc.done) return false;
    }
    return true;
  }

  private exit(proc: Proc, error: unknown, code = error === undefined ? 0 : 1): void {
    if (!proc.alive || proc.done || proc.exiting) return;
    // 'exit' listeners run on every end of the process but a crash: synchronous work only, as Node's.
    proc.exiting = true;
    const lived = this.runListeners(proc, 'exit', code);
    proc.exiting = false;
    if (!lived || !proc.alive || proc.done) return;
    proc.done = true;
    for (const request of this.service.requests) if (request.sender === proc.name) request.doneSeq ??= this.trace.length;
    for (const timer of proc.timers) this.clock.cancel(timer);
    proc.timers.clear();
    this.turns.yielded(proc);
    this.disk.closeOwnedBy(proc.pid);
    if (error === undefined) {
      this.exits.push({ pid: proc.pid, incarnation: proc.incarnation });
      this.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} finished` });
      return;
    }
    const message = (this.masksSecrets ? maskSecrets : String)(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    const frames = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12).map((line) => line.trim()) : [];
    this.exits.push({ pid: proc.pid, incarnation: proc.incarnation, error: message, ...(frames.length > 0 ? { stack: (this.masksSecrets ? maskSecrets : String)(frames.join('\n')) } : {}) });
    this.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} failed: ${message}` });
    this.scheduleRestart(proc);
  }

  /** process.exit(code) from the journal: the incarnation ends as a process would, finished or failed. */
  private exitByCall(proc: Proc, code: number): void {
    // The error stands for the exit code, not for a place in the journal's code: it carries no frames.
    this.exit(proc, code === 0 ? undefined : Object.assign(new Error(`process.exit(${code})`), { stack: `Error: process.exit(${code})` }), code);
  }

  /** An unhandled rejection or uncaught exception: it ends the incarnation that last ran, as it would end a process. */
  uncaught(error: unknown): void {
    outsideTurn(() => this.endByUncaught(error));
  }

  private endByUncaught(error: unknown): void {
    const proc = this.turns.lastRunner;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (proc && proc.alive && !proc.done) this.exit(proc, new Error(`unhandled: ${message}`));
    else this.record({ actor: 'supervisor', op: 'unhandled', detail: message });
  }

  private kill(proc: Proc): void {
    proc.alive = false;
    for (const request of this.service.requests) if (request.sender === proc.name) request.doneSeq ??= this.trace.length;
    this.turns.yielded(proc);
    proc.pending.length = 0;
    proc.inFlight.clear();
    for (const timer of proc.timers) this.clock.cancel(timer);
    proc.timers.clear();
  }

  /** `fault` strikes `proc` now (a process kill or a machine crash). */
  crash(proc: Proc, fault: CrashFault): void {
    // What the step just made durable is durable: observed before the crash takes anything back.
    this.inspection.observeDurable(this.trace.length - 1);
    const machine = fault.mode !== 'keep-all';
    const victims = machine ? this.procs.filter((p) => p.alive && !p.done) : [proc];
    const where = fault.at ? `its call #${fault.at.occurrence} that mentions ${fault.at.mentions}` : `step ${fault.step}`;
    this.record({ actor: 'supervisor', op: 'crash', detail: `${proc.name} ${fault.when} ${where} (${fault.mode}${machine ? ': machine crash' : ': process kill'}); killed ${victims.map((p) => p.name).join(', ')}` });
    for (const victim of victims) this.kill(victim);
    for (const victim of victims) this.disk.closeOwnedBy(victim.pid);
    const disk = atVirtualTime(this.clock.epochMs, () => this.disk.crash(fault));
    if (machine) {
      const lost = describeLoss(disk, rel);
      this.record({ actor: 'disk', op: 'crash', detail: lost.length > 0 ? lost.join('; ') : 'nothing unsynced was lost' });
    }
    this.options.beat?.(this.globalStep, undefined, 'inspect');
    const { durable: records, visible } = this.inspection.observeBoth(this.trace.length - 1, machine);
    const survivors = this.procs.filter((p) => p.alive && !p.done).map((p) => p.name);
    const files = filesOn(this.disk.durableView(), this.paths);
    this.crashes.push({ seq: this.trace.length - 1, timeMs: this.clock.nowMs, fault, killed: victims.map((p) => p.name), survivors, disk, gaps: gapsOf(disk, rel), records, visible, files, ...(this.options.crashDigests ? { imageDigest: this.disk.imageDigest() } : {}) });
    for (const victim of victims) this.scheduleRestart(victim);
  }

  private scheduleRestart(proc: Proc): void {
    const next = proc.incarnation + 1;
    if (next >= this.scenario.bounds.maxIncarnations) {
      this.halt({ kind: 'bounds-exceeded', bound: 'incarnations', detail: `worker-${proc.pid} would start incarnation ${next}, the bound is ${this.scenario.bounds.maxIncarnations}` });
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

  /**
   * What an incarnation wrote to its stdout or stderr (console.log and friends): a trace entry of its
   * own at the moment it was written — not a step, so no crash lands on it and nothing else moves.
   * Bounded: an entry keeps its first OUTPUT_ENTRY_CHARS_MAX characters, a run its first OUTPUT_RUN_CHARS_MAX.
   */
  private recordOutput(proc: Proc, stream: 'stdout' | 'stderr', text: string): void {
    if (!proc.alive || text.length === 0 || this.outputChars >= OUTPUT_RUN_CHARS_MAX) return;
    const written = this.options.outputText ? this.options.outputText(text) : text;
    const body = written.endsWith('\n') ? written.slice(0, -1) : written;
    const kept = Math.min(body.length, OUTPUT_ENTRY_CHARS_MAX, OUTPUT_RUN_CHARS_MAX - this.outputChars);
    this.outputChars += kept;
    const notes = [...(kept < body.length ? [`${body.length - kept} more characters not kept`] : []), ...(this.outputChars >= OUTPUT_RUN_CHARS_MAX ? [`nothing more of this run's output is kept past ${OUTPUT_RUN_CHARS_MAX} characters`] : [])];
    const cut = notes.length > 0 ? ` … (${notes.join('; ')})` : '';
    this.record({ actor: proc.actor, incarnation: proc.incarnation, op: stream, detail: `${body.slice(0, kept)}${cut}` });
  }

  record(entry: Omit<TraceEntry, 'seq' | 'timeMs'>): void {
    this.diskLane?.note(this.trace.length - 1);
    this.trace.push(this.masksSecrets ? { seq: this.trace.length, timeMs: this.clock.nowMs, ...entry, detail: maskSecrets(entry.detail) } : { seq: this.trace.length, timeMs: this.clock.nowMs, ...entry });
  }

  /** A worker's step: the entry record() would make, built in its key order without a spread (the step path's). */
  recordStep(proc: Proc, step: number, globalStep: number, op: string, detail: string): void {
    this.diskLane?.note(this.trace.length - 1);
    this.trace.push({ seq: this.trace.length, timeMs: this.clock.nowMs, actor: proc.actor, incarnation: proc.incarnation, step, globalStep, op, detail: this.masksSecrets ? maskSecrets(detail) : detail });
  }

  /** What a worker's step gave, when it says something (an error code, a status): the entry record() would make. */
  recordResult(proc: Proc, step: number, op: string, note: string): void {
    this.diskLane?.note(this.trace.length - 1);
    this.trace.push({ seq: this.trace.length, timeMs: this.clock.nowMs, actor: proc.actor, incarnation: proc.incarnation, step, op: `${op}:result`, detail: this.masksSecrets ? maskSecrets(note) : note });
  }

  /** Keeps the bytes the journal wrote or sent for the payload hash, tagged with the trace position. */
  notePayload(data: string | Uint8Array): void { this.payload.push(`${this.trace.length}:`, data); }

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
}
