/**
 * World: the scheduler of worker processes, and the owner of everything they touch.
 *
 * - Workers are async tasks. Every env call is a step, queued until the scheduler grants it; among
 *   ready workers (by pid) the scenario's schedule choices pick, a missing choice the lowest pid.
 * - After a grant the worker holds the turn until its next env call, its exit, or a wait on time.
 *   Virtual time advances only when no worker is ready (discrete events).
 * - A crash { process, incarnation, step, when } kills that incarnation before or after the step:
 *   its pending promises never settle and its later calls are refused (they never settle either).
 *   keep-all kills one worker; the other modes are machine crashes that kill every live worker
 *   and drop volatile disk state. Killed workers restart after restartDelayMs as fresh
 *   incarnations; a worker that exits with an error is restarted the same way.
 * - Bounds: global steps, incarnations per worker, virtual time. Running out stops the run with a
 *   liveness outcome, never a hang; so does a deadlock (workers waiting on nothing that will
 *   come) and a stall (a worker awaiting something outside env for STALL_TURNS event-loop turns).
 */
import type { Env, JournalAdapter, JournalRecords } from '../src/contract.js';
import { escapeReason, setTurn, type Escape } from './ambientGuard.js';
import { VirtualClock, type Timer } from './clock.js';
import { Disk } from './disk.js';
import { describeLoss, type CrashRecord, type ExitRecord, type StopReason } from './runRecords.js';
import { Network, type Transport } from './network.js';
import { Proc, type Outcome, type PendingStep } from './proc.js';
import { ScenarioEvents } from './scenarioEvents.js';
import { SERVICE_URL, taskFor, WORK_DIR, type CrashFault, type Fault, type Scenario } from './scenario.js';
import { invariant } from './invariant.js';
import { StallWatch } from './stallWatch.js';
import { ServiceCore, type ServiceEvent } from './service.js';
import { errorCode, preview, rel, type TraceEntry } from './trace.js';

/** Event-loop turns a worker may spend awaiting something outside env before the run is stopped. */
export const STALL_TURNS = 10_000;

export class World {
  readonly clock = new VirtualClock();
  readonly trace: TraceEntry[] = [];
  readonly disk: Disk;
  readonly service: ServiceCore;
  readonly network: Network;
  readonly procs: Proc[] = [];
  readonly crashes: CrashRecord[] = [];
  readonly exits: ExitRecord[] = [];
  readonly escapes: Escape[] = [];
  readonly userEdits: { seq: number; timeMs: number; path: string; text: string }[] = [];
  readonly inspectErrors: string[] = [];
  readonly arrivals = new Map<number, JournalRecords>();
  stop: StopReason | null = null;
  globalStep = 0;
  randomDraws = 0;
  incarnationsStarted = 0;
  private decisions = 0;
  private running = 0;
  private waiter: (() => void) | null = null;
  private waitId = 0;
  private readonly stallWatch = new StallWatch(() => (this.waiter === null ? null : this.waitId), () => this.stalled(), STALL_TURNS);
  private readonly events: ScenarioEvents;

  constructor(
    readonly journal: JournalAdapter,
    readonly scenario: Scenario,
    transport: Transport,
    private readonly makeEnv: (world: World, proc: Proc) => Env,
  ) {
    this.disk = new Disk(WORK_DIR, scenario.files);
    this.service = new ServiceCore(
      scenario.service,
      scenario.faults.filter((f) => f.kind === 'response'),
      this.clock,
      (event) => this.onServiceEvent(event),
    );
    this.network = new Network(this.service, SERVICE_URL, transport);
    this.events = new ScenarioEvents(scenario.faults);
  }


  async run(): Promise<StopReason> {
    this.spawn(0, 0);
    await this.quiesce();
    while (this.stop === null) {
      this.fireEventsDue();
      if (this.stop !== null) break;
      if (this.running > 0) await this.quiesce();
      const ready = this.procs.filter((p) => p.alive && !p.done && p.pending.length > 0);
      if (ready.length > 0) {
        if (this.globalStep >= this.scenario.bounds.maxSteps) {
          this.halt({ kind: 'bounds-exceeded', bound: 'steps', detail: `${this.globalStep} steps taken, the bound is ${this.scenario.bounds.maxSteps}` });
          break;
        }
        const choice = ready.length > 1 ? (this.scenario.schedule[this.decisions++] ?? 0) % ready.length : 0;
        await this.grant(ready[choice] as Proc);
        continue;
      }
      const due = this.clock.nextDueMs();
      if (due !== undefined) {
        if (due > this.scenario.bounds.maxVirtualTimeMs) {
          this.halt({ kind: 'bounds-exceeded', bound: 'virtual-time', detail: `the next event is at ${due} ms, the bound is ${this.scenario.bounds.maxVirtualTimeMs} ms` });
          break;
        }
        for (const timer of this.clock.advance()) {
          setTurn(null);
          timer.fire();
          await this.quiesce();
          if (this.stop !== null) break;
        }
        continue;
      }
      const leftOver = this.events.nextLeftOver();
      if (leftOver) {
        this.fireEvent(leftOver);
        await this.quiesce();
        continue;
      }
      const waiting = this.procs.filter((p) => p.alive && !p.done);
      if (waiting.length === 0) this.halt({ kind: 'completed' });
      else {
        const what = waiting.map((p) => `${p.name} waits on ${[...p.inFlight.values()].join(', ') || 'nothing the simulation knows of'}`).join('; ');
        this.halt({ kind: 'deadlock', detail: `${what}, and nothing is left that could wake it (a lost response with no timeout?)` });
      }
    }
    setTurn(null);
    this.stallWatch.clear();
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
      proc.pending.push({ op, detail, start, resolve: resolve as (value: unknown) => void, reject });
    });
    this.yielded(proc);
    return promise;
  }

  /** A step that completes at once with `run()`'s value, or its error. */
  syncStep<T>(proc: Proc, op: string, detail: string, run: () => T): Promise<T> {
    return this.step<T>(proc, op, detail, (complete) => {
      let outcome: Outcome<unknown>;
      try {
        outcome = { ok: true, value: run() };
      } catch (error) {
        outcome = { ok: false, error, note: errorCode(error) };
      }
      complete(outcome);
    });
  }

  /** A timer owned by `proc`: cancelled if it dies. */
  procTimer(proc: Proc, delayMs: number, label: string, fire: () => void): Timer {
    const timer = this.clock.at(delayMs, label, () => {
      proc.timers.delete(timer);
      fire();
    });
    proc.timers.add(timer);
    return timer;
  }

  private async grant(proc: Proc): Promise<void> {
    invariant(proc.alive && !proc.done, `${proc.name} was granted a step after it ended`);
    setTurn(null); // the simulator's own work (msw, streams) is not the journal's

    const request = proc.pending.shift() as PendingStep;
    const step = proc.calls++;
    const globalStep = this.globalStep++;
    this.record({ actor: `worker-${proc.pid}`, incarnation: proc.incarnation, step, globalStep, op: request.op, detail: request.detail });
    this.events.countAccess(request.op, request.detail);
    const before = this.events.crashAt(proc.pid, proc.incarnation, step, 'before');
    if (before) {
      this.crash(proc, before);
      return;
    }
    let completed = false;
    proc.inFlight.set(step, `${request.op} ${request.detail}`);
    const complete = (outcome: Outcome<unknown>): void => {
      if (completed) return;
      completed = true;
      proc.inFlight.delete(step);
      if (!proc.alive) return;
      if (outcome.note !== undefined) {
        this.record({ actor: `worker-${proc.pid}`, incarnation: proc.incarnation, step, op: `${request.op}:result`, detail: outcome.note });
      }
      const after = this.events.crashAt(proc.pid, proc.incarnation, step, 'after');
      if (after) {
        this.crash(proc, after);
        return;
      }
      if (proc.pending.length === 0 && proc.inFlight.size === 0 && !proc.running) {
        proc.running = true;
        this.running++;
      }
      setTurn(proc);
      if (outcome.ok) request.resolve(outcome.value);
      else request.reject(outcome.error);
    };
    try {
      await request.start(complete);
    } catch (error) {
      complete({ ok: false, error, note: errorCode(error) });
    }
    // The worker now holds the turn until its next env call, even across its own awaits.
    await this.quiesce();
  }

  private yielded(proc: Proc): void {
    setTurn(null);
    if (!proc.running) return;
    proc.running = false;
    this.running--;
    if (this.running === 0 && this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake();
    }
  }

  /** Waits until no worker holds the turn; stops the run if one stalls outside env. */
  private quiesce(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.waitId++;
      this.waiter = () => {
        setTurn(null);
        resolve();
      };
      this.stallWatch.arm();
    });
  }

  /** A worker awaited something outside env for STALL_TURNS event-loop turns: stop the run. */
  private stalled(): void {
    const stuck = this.procs.filter((p) => p.running);
    for (const proc of stuck) this.recordEscape(proc, 'stall');
    this.halt({
      kind: 'stalled',
      detail: `${stuck.map((p) => p.name).join(', ')} awaited something outside env for ${STALL_TURNS} event-loop turns (a real timer, real I/O, or a promise nothing resolves)`,
    });
    for (const proc of stuck) this.kill(proc);
    this.running = 0;
    const wake = this.waiter;
    this.waiter = null;
    wake?.();
  }


  spawn(pid: number, incarnation: number): void {
    const proc = new Proc((p, api) => this.recordEscape(p, api), pid, incarnation);
    this.procs[pid] = proc;
    this.incarnationsStarted++;
    this.record({ actor: 'supervisor', op: 'start', detail: proc.name });
    const task = taskFor(this.scenario, incarnation);
    proc.running = true;
    this.running++;
    setTurn(proc);
    let result: Promise<void>;
    try {
      result = Promise.resolve(this.journal.run(this.makeEnv(this, proc), task));
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      () => this.exit(proc, undefined),
      (error: unknown) => this.exit(proc, error ?? new Error('the journal rejected with no reason')),
    );
  }

  private exit(proc: Proc, error: unknown): void {
    if (!proc.alive || proc.done) return;
    proc.done = true;
    for (const timer of proc.timers) this.clock.cancel(timer);
    proc.timers.clear();
    this.yielded(proc);
    this.disk.closeOwnedBy(proc.pid);
    if (error === undefined) {
      this.exits.push({ pid: proc.pid, incarnation: proc.incarnation });
      this.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} finished` });
      return;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.exits.push({ pid: proc.pid, incarnation: proc.incarnation, error: message });
    this.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} failed: ${message}` });
    this.scheduleRestart(proc);
  }

  private kill(proc: Proc): void {
    proc.alive = false;
    if (proc.running) {
      proc.running = false;
      this.running--;
    }
    proc.pending.length = 0;
    proc.inFlight.clear();
    for (const timer of proc.timers) this.clock.cancel(timer);
    proc.timers.clear();
  }

  private crash(proc: Proc, fault: CrashFault): void {
    const machine = fault.mode !== 'keep-all';
    const victims = machine ? this.procs.filter((p) => p.alive && !p.done) : [proc];
    this.record({
      actor: 'supervisor',
      op: 'crash',
      detail: `${proc.name} ${fault.when} step ${fault.step} (${fault.mode}${machine ? ': machine crash' : ': process kill'}); killed ${victims.map((p) => p.name).join(', ')}`,
    });
    for (const victim of victims) this.kill(victim);
    for (const victim of victims) this.disk.closeOwnedBy(victim.pid);
    const disk = this.disk.crash(fault.mode, fault.tornKeepBytes);
    if (machine) {
      const lost = describeLoss(disk, rel);
      this.record({ actor: 'disk', op: 'crash', detail: lost.length > 0 ? lost.join('; ') : 'nothing unsynced was lost' });
    }
    this.crashes.push({
      seq: this.trace.length - 1,
      timeMs: this.clock.nowMs,
      fault,
      killed: victims.map((p) => p.name),
      survivors: this.procs.filter((p) => p.alive && !p.done).map((p) => p.name),
      disk,
      records: this.inspect('durable'),
      visible: machine ? this.inspect('durable') : this.inspect('visible'),
    });
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
    for (let fault = this.events.nextDue(this.globalStep); fault && this.stop === null; fault = this.events.nextDue(this.globalStep)) this.fireEvent(fault);
  }

  private fireEvent(fault: Fault): void {
    switch (fault.kind) {
      case 'user-edit':
        this.disk.userWrite(fault.path, fault.text);
        this.userEdits.push({ seq: this.trace.length, timeMs: this.clock.nowMs, path: fault.path, text: fault.text });
        this.record({ actor: 'user', op: 'edit', detail: `${fault.path} ← ${preview(fault.text)}` });
        return;
      case 'service-restart':
        this.service.restart();
        return;
      case 'duplicate-delivery': {
        const pid = this.procs.length;
        this.record({ actor: 'supervisor', op: 'duplicate-delivery', detail: `the task is delivered again to worker-${pid}` });
        this.spawn(pid, 0);
        return;
      }
      default:
        return;
    }
  }

  private onServiceEvent(event: ServiceEvent): void {
    if (event.kind === 'commit') {
      const { effect } = event;
      effect.seq = this.trace.length;
      this.record({ actor: 'service', op: 'commit', detail: `${effect.key} digest ${effect.digest.slice(0, 12)} receipt ${effect.receipt}${effect.requestIndex === null ? ' (before the run)' : ''}` });
    } else {
      this.record({ actor: 'service', op: 'restart', detail: event.forgotKeys > 0 ? `forgot ${event.forgotKeys} idempotency key(s)` : 'idempotency memory kept' });
    }
  }


  record(entry: Omit<TraceEntry, 'seq' | 'timeMs'>): void {
    this.trace.push({ seq: this.trace.length, timeMs: this.clock.nowMs, ...entry });
  }

  recordEscape(proc: Proc, api: string): Escape {
    const escape: Escape = { api, pid: proc.pid, incarnation: proc.incarnation, message: escapeReason(api) };
    this.escapes.push(escape);
    this.record({ actor: `worker-${proc.pid}`, incarnation: proc.incarnation, op: 'escape', detail: `${api}: ${escape.message}` });
    return escape;
  }

  /** The journal's records as its inspect() reads them from the durable or the visible image. */
  inspect(image: 'durable' | 'visible'): JournalRecords {
    try {
      return this.journal.inspect(image === 'durable' ? this.disk.durableView() : this.disk.liveView());
    } catch (error) {
      this.inspectErrors.push(error instanceof Error ? error.message : String(error));
      return {};
    }
  }
}
