/**
 * Atomics.wait, Atomics.waitAsync and Atomics.notify on the virtual clock. Model: a simulated
 * process is one thread, so only its own code can notify what it waits on.
 * - Atomics.wait(ta, i, v, ms): 'not-equal' when ta[i] is not v; else nothing can wake it, so it
 *   blocks its thread for `ms`: one atomic step that moves virtual time on by `ms` (the process's
 *   own timers, and any other's, fire late, as behind a real blocked thread), then 'timed-out'.
 *   With no timeout it would block forever, as a real one does: the real call runs, and durasim's
 *   watch on a blocked thread reports it (liveness).
 * - Atomics.waitAsync(ta, i, v, ms): { async: false, value: 'not-equal' | 'timed-out' } at once as
 *   Node gives it; else { async: true, value: a promise } settled 'ok' by an Atomics.notify of the
 *   same place, or 'timed-out' by a timer of the process on the virtual clock. One atomic step.
 * - Atomics.notify(ta, i, count): wakes the process's waiters at that place, oldest first; returns
 *   how many it woke. One atomic step.
 */
import { atomicStep } from '../../world/atomicStep.js';
import { boundStop } from '../../world/boundStop.js';
import type { Proc } from '../../world/proc.js';
import type { Served, ServeContext } from './serveContext.js';
import { ServedTimer } from './servedTimers.js';

type Waiter = { wake: (value: 'ok') => void };
type Shared = Int32Array | BigInt64Array;

/**
 * A process's waiters, by buffer and byte position: kept on the process itself, not in a WeakMap
 * keyed by it, since a young collection keeps a WeakMap's values (which reach the world) whatever
 * becomes of their keys.
 */
const WAITING: unique symbol = Symbol('durasim.atomicsWaiting');

function waitersAt(proc: Proc, array: Shared, index: number): Waiter[] {
  const slot = proc as unknown as { [WAITING]?: WeakMap<ArrayBufferLike, Map<number, Waiter[]>> };
  const byBuffer = (slot[WAITING] ??= new WeakMap());
  let byPlace = byBuffer.get(array.buffer);
  if (byPlace === undefined) byBuffer.set(array.buffer, (byPlace = new Map()));
  const place = array.byteOffset + index * array.BYTES_PER_ELEMENT;
  let list = byPlace.get(place);
  if (list === undefined) byPlace.set(place, (list = []));
  return list;
}

/** Node's checks, made by Node: a non-shared or wrong array, or an index out of range, throws as it would. */
function checked(args: readonly unknown[]): { array: Shared; index: number; timeoutMs: number; equal: boolean } {
  const [array, index, value, timeout] = args as [Shared, number, number | bigint, unknown];
  const current = Atomics.load(array as Int32Array, index); // throws Node's own TypeError or RangeError
  const timeoutMs = timeout === undefined ? Number.POSITIVE_INFINITY : Number.isNaN(Number(timeout)) ? Number.POSITIVE_INFINITY : Math.max(0, Number(timeout));
  return { array, index: Number(index), timeoutMs, equal: typeof current === 'bigint' ? current === BigInt(value as bigint) : current === Number(value) };
}

const wait: Served = (ctx, args, _thisArg, _newTarget, real) => {
  const { equal, timeoutMs } = checked(args);
  if (!equal) return atomicStep(ctx.world, ctx.proc, 'Atomics.wait', 'not-equal', () => 'not-equal');
  // Blocked for good, as a real process would be: the real call, reported by the blocked-thread watch.
  if (!Number.isFinite(timeoutMs)) return (real as () => unknown)();
  return atomicStep(ctx.world, ctx.proc, 'Atomics.wait', `${timeoutMs}ms`, () => {
    const { world } = ctx;
    if (world.clock.nowMs + timeoutMs > world.bounds.maxVirtualTimeMs) {
      const what = `${ctx.proc.name} blocked its thread for ${timeoutMs} ms (Atomics.wait) at ${world.clock.nowMs} ms`;
      world.haltAll(boundStop(world.bounds, 'virtual-time', what, world.scenario.version, `${what}, past the bound of ${world.bounds.maxVirtualTimeMs} ms`));
      return 'timed-out';
    }
    world.clock.skip(timeoutMs);
    return 'timed-out';
  });
};

const waitAsync: Served = (ctx, args) => {
  const { array, index, timeoutMs, equal } = checked(args);
  if (!equal) return atomicStep(ctx.world, ctx.proc, 'Atomics.waitAsync', 'not-equal', () => ({ async: false, value: 'not-equal' }));
  if (timeoutMs === 0) return atomicStep(ctx.world, ctx.proc, 'Atomics.waitAsync', 'timed-out', () => ({ async: false, value: 'timed-out' }));
  return atomicStep(ctx.world, ctx.proc, 'Atomics.waitAsync', Number.isFinite(timeoutMs) ? `${timeoutMs}ms` : 'no timeout', () => {
    const waiters = waitersAt(ctx.proc, array, index);
    const value = new Promise<'ok' | 'timed-out'>((resolve) => {
      let timer: ServedTimer | undefined;
      const waiter: Waiter = {
        wake: (woken) => {
          timer?.cancel();
          resolve(woken);
        },
      };
      waiters.push(waiter);
      if (Number.isFinite(timeoutMs))
        timer = new ServedTimer(ctx, 'Atomics.waitAsync', Math.trunc(timeoutMs), false, () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          resolve('timed-out');
        });
    });
    return { async: true, value };
  });
};

const notify: Served = (ctx: ServeContext, args) => {
  const [array, index, count] = args as [Shared, number, number | undefined];
  Atomics.load(array as Int32Array, index); // Node's own checks
  const most = count === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.trunc(Number(count)));
  return atomicStep(ctx.world, ctx.proc, 'Atomics.notify', '', () => {
    const waiters = waitersAt(ctx.proc, array, Number(index));
    const woken = waiters.splice(0, Math.min(most, waiters.length));
    for (const waiter of woken) waiter.wake('ok');
    return woken.length;
  });
};

export const ATOMICS_SERVED: [string, Served][] = [
  ['Atomics.wait', wait],
  ['Atomics.waitAsync', waitAsync],
  ['Atomics.notify', notify],
];
