/**
 * Randomness a journal draws through Node, from the scenario: each call is one atomic step and
 * one draw (shared with env.random(), in call order). A number (Math's and crypto's randomInt) is
 * the scenario's value, 0 past its end, as env.random() is. Bytes (randomBytes, getRandomValues,
 * UUIDs, randomFill) are a digest of the draw's index and value: without an entry they are
 * still unique within the run, so two ids never collide unless the scenario says so — a missing
 * entry is the boring default.
 */
import { atomicStep } from '../../world/atomicStep.js';
import { asCaller, type Served, type ServeContext } from './serveContext.js';
import { derivedBytes, uuidOf } from '../../sandbox/derivedBytes.js';

function draw(ctx: ServeContext): { index: number; value: number | undefined } {
  const index = ctx.world.randomDraws++;
  return { index, value: ctx.world.scenario.random[index] };
}

const bytesOf = (index: number, value: number | undefined, length: number): Buffer => derivedBytes(`durasim.random:${index}:${value ?? '-'}`, length);

function randomBytes(ctx: ServeContext, api: string, length: number): Buffer {
  return atomicStep(ctx.world, ctx.proc, api, `${length} bytes`, () => {
    const { index, value } = draw(ctx);
    return bytesOf(index, value, length);
  });
}

function uuid(ctx: ServeContext, api: string): string {
  return uuidOf(randomBytes(ctx, api, 16));
}

function number(ctx: ServeContext, api: string): number {
  return atomicStep(ctx.world, ctx.proc, api, '', () => draw(ctx).value ?? 0);
}

function fill(ctx: ServeContext, api: string, target: unknown, offset = 0, size?: number): unknown {
  if (!ArrayBuffer.isView(target) && !(target instanceof ArrayBuffer)) throw Object.assign(new TypeError(`The "buf" argument must be an instance of ArrayBuffer or ArrayBufferView`), { code: 'ERR_INVALID_ARG_TYPE' });
  const view = ArrayBuffer.isView(target) ? new Uint8Array(target.buffer, target.byteOffset, target.byteLength) : new Uint8Array(target);
  const length = size ?? view.length - offset;
  view.set(randomBytes(ctx, api, length), offset);
  return target;
}

/** A callback-style call: its callback runs later, as the process's own code. */
function later(ctx: ServeContext, callback: unknown, run: () => unknown): undefined {
  let result: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    result = { ok: true, value: run() };
  } catch (error) {
    result = { ok: false, error };
  }
  if (typeof callback === 'function') {
    asCaller(ctx, () => queueMicrotask(() => (result.ok ? callback(null, result.value) : callback(result.error))));
  }
  return undefined;
}

function randomInt(ctx: ServeContext, args: readonly unknown[]): unknown {
  const callback = typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined;
  const numbers = (callback ? args.slice(0, -1) : args) as number[];
  const [min, max] = numbers.length >= 2 ? [numbers[0] as number, numbers[1] as number] : [0, numbers[0] as number];
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) {
    throw Object.assign(new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`), { code: 'ERR_OUT_OF_RANGE' });
  }
  const pick = (): number => min + Math.floor(number(ctx, 'crypto.randomInt') * (max - min));
  return callback ? later(ctx, callback, pick) : pick();
}

export const RANDOM_SERVED: [string, Served][] = [
  ['Math.random', (ctx) => number(ctx, 'Math.random')], // allow-ambient: names what it serves
  ['crypto.randomUUID', (ctx) => uuid(ctx, 'crypto.randomUUID')], // allow-ambient: names what it serves
  ['crypto.getRandomValues', (ctx, args) => fill(ctx, 'crypto.getRandomValues', args[0])],
  ['crypto.randomFillSync', (ctx, args) => fill(ctx, 'crypto.randomFillSync', args[0], args[1] as number | undefined, args[2] as number | undefined)],
  [
    'crypto.randomFill',
    (ctx, args) => {
      const callback = args[args.length - 1];
      const [offset, size] = args.length > 2 ? [args[1] as number, args.length > 3 ? (args[2] as number) : undefined] : [0, undefined];
      return later(ctx, callback, () => fill(ctx, 'crypto.randomFill', args[0], offset, size));
    },
  ],
  [
    'crypto.randomBytes',
    (ctx, args) => {
      const length = args[0] as number;
      return typeof args[1] === 'function' ? later(ctx, args[1], () => randomBytes(ctx, 'crypto.randomBytes', length)) : randomBytes(ctx, 'crypto.randomBytes', length);
    },
  ],
  ['crypto.randomInt', (ctx, args) => randomInt(ctx, args)],
];
