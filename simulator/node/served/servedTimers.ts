/**
 * Timers a journal sets through Node, on the virtual clock. Rules:
 * - setTimeout, setInterval and setImmediate (global, node:timers) are one atomic step each; the (allow-ambient: names what it serves)
 *   timer belongs to the incarnation (a crash cancels it) and fires as its own code, when the
 *   world advances virtual time to it. As in Node, a delay below 1 ms or above 2^31-1 ms is 1 ms;
 *   setImmediate is a timer of 0 ms: it fires once no worker can take a step. (allow-ambient: names what it serves)
 * - The handle is Node's shape (ref, unref, hasRef, refresh, close, a numeric primitive);
 *   clearTimeout and friends cancel it (guard/guardGlobals.ts).
 * - timers/promises setTimeout, setImmediate and scheduler.wait settle on the virtual clock and (allow-ambient: names what it serves)
 *   honour an AbortSignal; AbortSignal.timeout(ms) aborts with a TimeoutError on it.
 * - An exception thrown by a timer's callback ends the incarnation, as an uncaught exception ends
 *   a process.
 */
import { outsideTurn, SERVED_TIMER } from '../../sandbox/ambientGuard.js';
import { lockServedClass } from '../../sandbox/lockServedClass.js';
import { atomicStep } from '../../world/atomicStep.js';
import { timeoutReason, type Timer } from '../../world/clock.js';
import { RefHandle } from './refHandle.js';
import { asCaller, type Served, type ServeContext } from './serveContext.js';

const TIMEOUT_MAX = 2 ** 31 - 1;

function delayOf(value: unknown): number {
  const ms = Number(value);
  return ms >= 1 && ms <= TIMEOUT_MAX ? Math.trunc(ms) : 1;
}

function invalidCallback(callback: unknown): Error {
  return Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${callback === null ? 'null' : typeof callback}`), { code: 'ERR_INVALID_ARG_TYPE' });
}

/** Runs a timer's callback as the incarnation's own code; what it throws ends the incarnation. */
function fireAs(ctx: ServeContext, label: string, callback: () => void): void {
  const { world, proc } = ctx;
  if (!proc.alive || proc.done) return;
  world.record({ actor: `worker-${proc.pid}`, incarnation: proc.incarnation, op: 'timer', detail: `${label} fired` });
  world.turns.resume(proc);
  try {
    asCaller(ctx, callback);
  } catch (error) {
    world.uncaught(error);
  }
}

/** Node's Timeout and Immediate, on the virtual clock. */
export class ServedTimer extends RefHandle {
  #timer: Timer | undefined;
  readonly #id: number;
  readonly [SERVED_TIMER] = (): void => this.cancel();

  // What it serves with is private (#): the journal holds the timer, and a property would hand it durasim's world and clock.
  readonly #ctx: ServeContext;
  readonly #label: string;
  readonly #delayMs: number;
  readonly #repeat: boolean;
  readonly #callback: () => void;

  constructor(ctx: ServeContext, label: string, delayMs: number, repeat: boolean, callback: () => void) {
    super();
    this.#ctx = ctx;
    this.#label = label;
    this.#delayMs = delayMs;
    this.#repeat = repeat;
    this.#callback = callback;
    this.#arm();
    this.#id = (this.#timer as Timer).seq + 1;
  }

  #arm(): void {
    this.#timer = this.#ctx.world.procTimer(this.#ctx.proc, this.#delayMs, this.#label, () => {
      if (this.#repeat) this.#arm();
      else this.#timer = undefined;
      fireAs(this.#ctx, this.#label, this.#callback);
    });
  }

  cancel(): void {
    if (this.#timer === undefined) return;
    this.#ctx.world.clock.cancel(this.#timer);
    this.#ctx.proc.timers.delete(this.#timer);
    this.#timer = undefined;
  }

  refresh(): this {
    if (this.#timer !== undefined) {
      this.cancel();
      this.#arm();
    }
    return this;
  }
  close(): this {
    this.cancel();
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.#id;
  }
}
lockServedClass(ServedTimer);

function callbackTimer(api: string, repeat: boolean, immediate: boolean): Served {
  return (ctx, args) => {
    const callback = args[0];
    if (typeof callback !== 'function') throw invalidCallback(callback);
    const delayMs = immediate ? 0 : delayOf(args[1]);
    const rest = args.slice(immediate ? 1 : 2);
    const make = (): ServedTimer => new ServedTimer(ctx, api, delayMs, repeat, () => callback(...rest));
    // A gone process's timer is never armed (procTimer refuses it): it never fires.
    return atomicStep(ctx.world, ctx.proc, api, immediate ? '' : `${delayMs}ms`, make, make);
  };
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** timers/promises: a promise settled on the virtual clock, rejected when its signal aborts. */
function promiseTimer(api: string, immediate: boolean): Served {
  return (ctx, args) => {
    const delayMs = immediate ? 0 : delayOf(args[0]);
    const value = immediate ? args[0] : args[1];
    const options = (immediate ? args[1] : args[2]) as { signal?: AbortSignal } | undefined;
    const signal = options?.signal;
    return atomicStep(ctx.world, ctx.proc, api, immediate ? '' : `${delayMs}ms`, () => {
      if (signal?.aborted) return Promise.reject(abortError(signal));
      return new Promise((resolve, reject) => {
        const onAbort = (): void =>
          outsideTurn(() => {
            timer.cancel();
            reject(abortError(signal as AbortSignal));
          });
        const timer = new ServedTimer(ctx, api, delayMs, false, () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }, () => new Promise(() => {}));
  };
}

const abortTimeout: Served = (ctx, args) => {
  const delayMs = Math.max(0, Math.trunc(Number(args[0])));
  return atomicStep(ctx.world, ctx.proc, 'AbortSignal.timeout', `${delayMs}ms`, () => {
    const controller = new AbortController();
    ctx.world.procTimer(ctx.proc, delayMs, 'AbortSignal.timeout', () =>
      ctx.world.turns.abortAs(ctx.proc, controller, timeoutReason(), ctx.call),
    );
    return controller.signal;
  }, () => new AbortController().signal);
};

export const TIMER_SERVED: [string, Served][] = [
  ['setTimeout', callbackTimer('setTimeout', false, false)], // allow-ambient: names what it serves
  ['setInterval', callbackTimer('setInterval', true, false)], // allow-ambient: names what it serves
  ['setImmediate', callbackTimer('setImmediate', false, true)], // allow-ambient: names what it serves
  ['timers.setTimeout', callbackTimer('timers.setTimeout', false, false)], // allow-ambient: names what it serves
  ['timers.setInterval', callbackTimer('timers.setInterval', true, false)], // allow-ambient: names what it serves
  ['timers.setImmediate', callbackTimer('timers.setImmediate', false, true)], // allow-ambient: names what it serves
  ['setTimeout.[nodejs.util.promisify.custom]', promiseTimer('setTimeout.[nodejs.util.promisify.custom]', false)], // allow-ambient: names what it serves
  ['setImmediate.[nodejs.util.promisify.custom]', promiseTimer('setImmediate.[nodejs.util.promisify.custom]', true)], // allow-ambient: names what it serves
  ['timers.promises.setTimeout', promiseTimer('timers.promises.setTimeout', false)], // allow-ambient: names what it serves
  ['timers.promises.setImmediate', promiseTimer('timers.promises.setImmediate', true)], // allow-ambient: names what it serves
  ['timers.promises.scheduler.wait', promiseTimer('timers.promises.scheduler.wait', false)],
  ['timers.promises.scheduler.yield', (ctx) => promiseTimer('timers.promises.scheduler.yield', true)(ctx, [], undefined)],
  ['AbortSignal.timeout', abortTimeout],
];
