/**
 * A real worker process's steps, numbered as the simulator numbers them: a scheduled step (an env
 * call, an asynchronous Node call, a FileHandle method) takes its number when the parent lets it go,
 * a synchronous call at once. The scenario's process kills for this incarnation are found exactly as
 * the simulator finds them (by number, or by the rank of the steps that mention an anchor), and
 * carried out for real: the process writes what it is about to do to its side file and SIGKILLs
 * itself, before or after the step. A pause at a scheduled step is a real wait of its length
 * between the grant and the call (the parent lets the other workers go meanwhile). A machine crash (traced runs only) starts the same way; the
 * parent then kills every other worker and builds the crash image from their real calls.
 */
import { appendFileSync } from 'node:fs';
import { callOfTurn, moduleLoading, outsideTurn } from '../../simulator/sandbox/ambientGuard.js';
import { ScenarioEvents } from '../../simulator/scenario/scenarioEvents.js';
import { MODULE_LOAD_VERSION, type Fault } from '../../simulator/scenario/scenario.js';
import type { PauseFault } from '../../simulator/scenario/scenarioFaults.js';
import { WAITS, type FromWorker, type SideLine, type WorkerStart } from './protocol.js';

const kill = process.kill.bind(process); // captured before the sandbox: this process is real
const pidOfThis = process.pid;
const later = setImmediate; // captured before the sandbox

/** Steps whose call waits on the world once granted (a request, a sleep, a store call): the process may be idle while they are under way. */
const waitsOnTheWorld = (op: string): boolean => WAITS.has(op) || op.startsWith('store.');

export class StepCounter {
  private calls = 0;
  private readonly events: ScenarioEvents;
  private waiting: (() => void)[] = [];
  /** Scheduled steps asked for and not yet completed. */
  private open = 0;
  /** Granted steps under way that keep their call running (not waiting on the world, not paused). */
  private running = 0;
  /** The parent's messages handled so far ("go", "call-again"): an idle report names how many it saw. */
  private seen = 0;
  /** Calls of run() under way (set by the worker): with two or more, the parent learns when all are blocked from "idle". */
  callsUnderWay = 1;
  private idleCheck = false;

  /** Whether a scheduled step is asked for or under way. */
  get busy(): boolean {
    return this.open > 0;
  }

  /** The IPC channel's send, taken before the sandbox refuses process.send to the journal (a step is told from the journal's own turn). */
  private readonly send = (process.send as (message: FromWorker) => void).bind(process);

  constructor(private readonly start: WorkerStart) {
    const mine = (f: Fault): boolean => (f.kind === 'crash' || f.kind === 'pause') && f.process === start.pid && f.incarnation === start.incarnation;
    this.events = new ScenarioEvents(start.faults.filter((f) => mine(f) && (f.kind !== 'crash' || f.mode === 'keep-all' || start.machineCrashes)));
    process.on('message', (message: { type?: string }) => {
      if (message?.type === 'go') {
        this.seen++;
        this.waiting.shift()?.();
      } else if (message?.type === 'call-again') {
        this.seen++;
        this.callAgain();
        this.checkIdle();
      }
    });
    this.send({ type: 'hello', pid: pidOfThis });
  }

  private callAgain: () => void = () => this.tell({ type: 'refused' });

  /** What to do when the parent hands this process a concurrent call (until set: refuse it). */
  onCallAgain(handler: () => void): void {
    this.callAgain = handler;
  }

  /** A message to the parent. With two or more calls under way, an idle check follows it. */
  tell(message: FromWorker): void {
    this.send(message);
    this.checkIdle(message.type === 'returned');
  }

  /**
   * With several calls under way, the parent cannot tell from one call's ask that the process is
   * blocked (another call may run on): once everything runnable has run (the next turn of the event
   * loop) and no granted step keeps a call running, the process says it is idle, naming how many of
   * the parent's messages it had seen (a report the parent's later "go" overtook is stale). After a
   * call returned (`force`), once more: the one left may be blocked or may run on.
   */
  private checkIdle(force = false): void {
    if ((this.callsUnderWay < 2 && !force) || this.idleCheck) return;
    this.idleCheck = true;
    outsideTurn(() =>
      later(() => {
        this.idleCheck = false;
        if (this.running === 0) this.send({ type: 'idle', seen: this.seen });
      }),
    );
  }

  side(line: SideLine): void {
    outsideTurn(() => appendFileSync(this.start.sideFile, `${JSON.stringify(line)}\n`));
  }

  /** A scheduled step: asks the parent, then runs `real`; a crash before or after it is real. */
  async scheduled<T>(op: string, detail: string, real: () => Promise<T>): Promise<T> {
    this.open++;
    try {
      return await this.scheduledStep(op, detail, real);
    } finally {
      this.open--;
    }
  }

  private async scheduledStep<T>(op: string, detail: string, real: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.tell({ type: 'ask', op, detail });
    });
    const { step, after, pause } = this.begin(op, detail);
    if (pause) {
      // The scenario's pause: granted, the step waits before it takes effect; the parent lets others run meanwhile.
      this.tell({ type: 'pause', step, op, ms: pause.pauseMs });
      await outsideTurn(() => new Promise<void>((resolve) => setTimeout(resolve, pause.pauseMs)));
      this.tell({ type: 'resumed', op });
    }
    const keepsRunning = !waitsOnTheWorld(op);
    if (keepsRunning) this.running++;
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      // Made outside the journal's turn: what Node does inside (undici's timers, fs internals) is not the journal's step.
      outcome = { ok: true, value: await outsideTurn(real) };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      if (keepsRunning) this.running--;
    }
    this.end(step, op, after, outcome.ok ? undefined : outcome.error);
    if (outcome.ok) this.side({ type: 'result', step, op, note: 'ok' });
    this.tell({ type: 'done', op });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** A synchronous step: at once, in the caller's stack. While a module loads it is no step from format 3 on (sandbox/turn.ts asModuleLoad), as simulated. */
  atomic<T>(op: string, detail: string, real: () => T): T {
    if (moduleLoading() && this.start.version >= MODULE_LOAD_VERSION) return real();
    const { step, after } = this.begin(op, detail);
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: real() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    this.end(step, op, after, outcome.ok ? undefined : outcome.error);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  private begin(op: string, detail: string): { step: number; after: Fault | undefined; pause: PauseFault | undefined } {
    const step = this.calls++;
    const call = callOfTurn();
    this.side(call === 0 ? { type: 'step', step, op, detail } : { type: 'step', step, op, detail, call });
    const faults = this.events.faultsAt(this.start.pid, this.start.incarnation, step, op, detail);
    if (faults.before) this.die(step, 'before', op, faults.before);
    return { step, after: faults.after, pause: faults.pause };
  }

  private end(step: number, op: string, after: Fault | undefined, error: unknown): void {
    if (error !== undefined) this.side({ type: 'result', step, op, note: (error as { code?: string }).code ?? (error instanceof Error ? error.name : 'error') });
    if (after) this.die(step, 'after', op, after);
  }

  private die(step: number, when: 'before' | 'after', op: string, fault: Fault): never {
    this.side({ type: 'crash', step, when, op, fault: this.start.faults.indexOf(fault), mode: fault.kind === 'crash' ? fault.mode : 'keep-all' });
    kill(pidOfThis, 'SIGKILL');
    throw new Error('unreachable: SIGKILL');
  }
}
