/**
 * The globals a journal can reach without importing anything: the real clock (Date, performance,
 * Intl's "now"), randomness (Math.random, Web Crypto), timers, the global fetch. While a journal (allow-ambient: names what it guards)
 * holds the turn each is served by the simulated world where it can be (node/served/), else refused.
 * clearTimeout and friends cancel a served timer and pass anything else through. Buffer.allocUnsafe is served zero-filled under the turn, so a
 * journal that writes unfilled bytes writes the same bytes every run. Returns restore callbacks.
 */
import { guardFunction, guardProperty, serveOrRefuse } from './guardFunction.js';
import { createHash } from 'node:crypto';
import { turnHolder } from './turn.js';

type Restore = () => void;

function replace(target: object, name: string, value: unknown): Restore {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: descriptor?.enumerable ?? false });
  return () => {
    if (descriptor) Object.defineProperty(target, name, descriptor);
    else delete (target as Record<string, unknown>)[name];
  };
}

let virtualNowMs: number | null = null;
/**
 * The Date the simulator's own work gets for `nowMs`: one object per virtual instant. memfs stamps
 * several on every call (the times of each inode and folder it touches) and never changes one in
 * place (its Stats are copies), so they can be one. Made with the real Date, never through the guard.
 */
let sharedDate: Date | undefined;
function virtualDate(nowMs: number): Date {
  if (sharedDate === undefined || sharedDate.getTime() !== nowMs) sharedDate = new RealDateOf.Date(nowMs);
  return sharedDate;
}
const RealDateOf = { Date }; // allow-ambient: captured before the guard wraps Date, for the simulator's own stamps
/** The real clock, for a holder that is a real process (durasim confirm). */
const realNow = Date.now; // allow-ambient: captured before the guard, made only for a real process

/**
 * Runs the simulator's own synchronous work (a disk operation: memfs stamps every change with
 * `new Date()`) at the virtual time `nowMs`, so what stat() reports is the same in every run. (allow-ambient: names what it serves)
 * The errors it raises for the journal (ENOENT, EEXIST…) carry no stack frames, as node:fs's
 * asynchronous errors carry none: frames of the simulator would mean nothing to the journal's
 * author, and capturing them is most of what such an error costs. (The simulator's own broken
 * invariants keep theirs: invariant.ts.)
 */
export function atVirtualTime<T>(nowMs: number, run: () => T): T {
  const saved = virtualNowMs;
  const frames = Error.stackTraceLimit;
  virtualNowMs = nowMs;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    virtualNowMs = saved;
    Error.stackTraceLimit = frames;
  }
}

/**
 * new Date() and Date() read the clock; new Date(value) does not. A plain function rather than a (allow-ambient: names what it guards)
 * Proxy: memfs makes a Date on every file operation, and a Proxy's construct trap is slow.
 */
function guardDate(): Restore[] {
  const RealDate = Date;
  const restores: Restore[] = [];
  const now = guardProperty(RealDate, 'now', 'Date.now'); // allow-ambient: names what it guards
  if (now) restores.push(now);
  const make = RealDate as unknown as new (...args: unknown[]) => Date;
  // Explicit parameters, no rest array: this runs on every memfs operation.
  function GuardedDate(this: unknown, a?: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown, g?: unknown): Date | string {
    const count = arguments.length;
    if (new.target === GuardedDate) {
      if (count === 0) {
        // The simulator's own work first: it may run in a journal's context (a listener the world set on the journal's signal).
        if (virtualNowMs !== null) return virtualDate(virtualNowMs);
        const holder = turnHolder();
        if (holder !== null) return new make(serveOrRefuse(holder, 'new Date()', realNow)); // allow-ambient: names what it guards
        return new RealDate(); // allow-ambient: the guard's pass-through
      }
      // Exactly as many arguments as given: new Date(2020, 1) is not new Date(2020, 1, undefined). (allow-ambient: names what it guards)
      switch (count) {
        case 1: return new make(a);
        case 2: return new make(a, b);
        case 3: return new make(a, b, c);
        case 4: return new make(a, b, c, d);
        case 5: return new make(a, b, c, d, e);
        case 6: return new make(a, b, c, d, e, f);
        default: return new make(a, b, c, d, e, f, g);
      }
    }
    if (new.target !== undefined) {
      // A subclass (class D extends Date), or Reflect.construct(Date, [], X): "now" is the virtual clock's too.
      if (count === 0) {
        if (virtualNowMs !== null) return Reflect.construct(RealDate, [virtualNowMs], new.target) as Date;
        const holder = turnHolder();
        if (holder !== null) return Reflect.construct(RealDate, [serveOrRefuse(holder, 'new Date()', realNow)], new.target) as Date; // allow-ambient: names what it guards
      }
      return Reflect.construct(RealDate, Array.prototype.slice.call(arguments), new.target) as Date;
    }
    const holder = turnHolder();
    if (holder !== null) return new make(serveOrRefuse(holder, 'Date()', realNow)).toString();
    return (RealDate as unknown as () => string)();
  }
  Object.defineProperties(GuardedDate, Object.getOwnPropertyDescriptors(RealDate));
  restores.push(replace(globalThis, 'Date', GuardedDate));
  // Dates made through the guard still say `d.constructor === Date`.
  restores.push(replace(RealDate.prototype, 'constructor', GuardedDate));
  return restores;
}

/** Intl.DateTimeFormat#format() and formatToParts() without a date format "now". */
function guardIntl(): Restore[] {
  const prototype = Intl.DateTimeFormat.prototype;
  const formatGetter = Object.getOwnPropertyDescriptor(prototype, 'format');
  const formatToParts = Object.getOwnPropertyDescriptor(prototype, 'formatToParts');
  const restores: Restore[] = [];
  if (formatGetter?.get) {
    const realGet = formatGetter.get;
    Object.defineProperty(prototype, 'format', {
      ...formatGetter,
      get(this: Intl.DateTimeFormat) {
        const bound = realGet.call(this) as (date?: Date | number) => string;
        return (date?: Date | number): string => {
          const holder = turnHolder();
          if (holder !== null && date === undefined) return bound(serveOrRefuse(holder, 'Intl.DateTimeFormat.format', realNow) as number);
          return bound(date);
        };
      },
    });
    restores.push(() => Object.defineProperty(prototype, 'format', formatGetter));
  }
  if (formatToParts && typeof formatToParts.value === 'function') {
    const real = formatToParts.value as (this: Intl.DateTimeFormat, date?: Date | number) => Intl.DateTimeFormatPart[];
    Object.defineProperty(prototype, 'formatToParts', {
      ...formatToParts,
      value(this: Intl.DateTimeFormat, date?: Date | number) {
        const holder = turnHolder();
        if (holder !== null && date === undefined) return real.call(this, serveOrRefuse(holder, 'Intl.DateTimeFormat.formatToParts', realNow) as number);
        return real.call(this, date);
      },
    });
    restores.push(() => Object.defineProperty(prototype, 'formatToParts', formatToParts));
  }
  return restores;
}

function guardPerformance(): Restore[] {
  const perf = globalThis.performance as unknown as Record<string, unknown> | undefined;
  if (!perf) return [];
  const restores: Restore[] = [];
  const methods = ['now', 'mark', 'measure', 'timerify', 'eventLoopUtilization', 'getEntries', 'getEntriesByName', 'getEntriesByType', 'toJSON', 'markResourceTiming'];
  for (const name of methods) {
    const original = perf[name];
    if (typeof original !== 'function') continue;
    restores.push(replace(perf, name, guardFunction((original as (...a: unknown[]) => unknown).bind(perf), `performance.${name}`)));
  }
  const origin = perf.timeOrigin;
  Object.defineProperty(perf, 'timeOrigin', {
    configurable: true,
    enumerable: true,
    get() {
      const holder = turnHolder();
      if (holder !== null) return serveOrRefuse(holder, 'performance.timeOrigin', () => origin);
      return origin;
    },
  });
  restores.push(() => delete perf.timeOrigin);
  // performance.nodeTiming reads the real clock in its getters: refused under a turn.
  const nodeTiming = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(perf), 'nodeTiming');
  if (nodeTiming !== undefined) {
    const realGet = nodeTiming.get ?? (() => nodeTiming.value as unknown);
    Object.defineProperty(perf, 'nodeTiming', {
      configurable: true,
      enumerable: true,
      get() {
        const holder = turnHolder();
        return holder !== null ? serveOrRefuse(holder, 'performance.nodeTiming', () => realGet.call(perf)) : realGet.call(perf);
      },
    });
    restores.push(() => delete perf.nodeTiming);
  }
  return restores;
}

/**
 * Event#timeStamp: when the event was made, on the performance clock. Under a turn it is the
 * virtual clock's (served, a step the first time it is read; the same value every read after).
 */
function guardEventTimeStamp(): Restore[] {
  const descriptor = Object.getOwnPropertyDescriptor(Event.prototype, 'timeStamp');
  if (!descriptor?.get) return [];
  const realGet = descriptor.get;
  const stamps = new WeakMap<object, unknown>();
  Object.defineProperty(Event.prototype, 'timeStamp', {
    ...descriptor,
    get(this: Event) {
      const holder = turnHolder();
      if (holder === null) return realGet.call(this);
      if (!stamps.has(this)) stamps.set(this, serveOrRefuse(holder, 'Event.timeStamp', () => realGet.call(this)));
      return stamps.get(this);
    },
  });
  return [() => Object.defineProperty(Event.prototype, 'timeStamp', descriptor)];
}

const DIGESTS: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** crypto.subtle's operations that run on Node's thread pool: served as work the world waits for (node/served/servedThreadPool.ts). */
export const SUBTLE_THREAD_POOL = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveBits', 'deriveKey', 'wrapKey', 'unwrapKey', 'importKey', 'exportKey'];

/**
 * Web Crypto, guarded on its prototypes (a method called on the object through its prototype is
 * the same call): randomness drawn from the scenario, key generation refused, digests at once, the
 * rest served on the thread pool as work the world waits for.
 */
function guardWebCrypto(): Restore[] {
  const webCrypto = globalThis.crypto as unknown as Record<string, unknown> | undefined;
  if (!webCrypto) return [];
  const restores: Restore[] = [];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  const cryptoPrototype = Object.getPrototypeOf(webCrypto) as object;
  for (const name of ['randomUUID', 'getRandomValues']) add(guardProperty(cryptoPrototype, name, `crypto.${name}`)); // allow-ambient: names what it guards
  const subtle = webCrypto.subtle as object | undefined;
  if (!subtle) return restores;
  const subtlePrototype = Object.getPrototypeOf(subtle) as Record<string, unknown>;
  for (const name of ['generateKey', ...SUBTLE_THREAD_POOL]) add(guardProperty(subtlePrototype, name, `crypto.subtle.${name}`));
  // A digest completes on the thread pool, at a real time: under a turn it is computed at once, so a
  // journal that hashes while a served timer is pending runs the same way every time.
  const digest = subtlePrototype.digest;
  if (typeof digest === 'function') {
    const real = digest as (this: unknown, ...a: unknown[]) => Promise<ArrayBuffer>;
    restores.push(replace(subtlePrototype, 'digest', function digestAtOnce(this: unknown, algorithm: unknown, data: unknown): Promise<ArrayBuffer> {
      const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: unknown } | null)?.name;
      const hash = typeof name === 'string' ? DIGESTS[name.toUpperCase()] : undefined;
      if (turnHolder() === null || hash === undefined || !(ArrayBuffer.isView(data) || data instanceof ArrayBuffer)) return real.call(this, algorithm, data);
      const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
      const out = createHash(hash).update(bytes).digest();
      return Promise.resolve(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
    }));
  }
  return restores;
}

function serveAllocUnsafe(): Restore[] {
  const restores: Restore[] = [];
  for (const name of ['allocUnsafe', 'allocUnsafeSlow'] as const) {
    const original = Buffer[name];
    const served = Object.assign(function allocUnsafe(size: number): Buffer {
      return turnHolder() === null ? original.call(Buffer, size) : Buffer.alloc(size);
    }, original);
    restores.push(replace(Buffer, name, served));
  }
  return restores;
}

/** Marks a served timer (node/served/servedTimers.ts): its value cancels it. */
export const SERVED_TIMER = Symbol.for('durasim.servedTimer');

/** clearTimeout and friends: a served timer is cancelled in the world; anything else passes through. */
export function cancelsServed(real: (handle?: unknown) => void): (handle?: unknown) => void {
  return function clear(handle?: unknown): void {
    const cancel = typeof handle === 'object' && handle !== null ? (handle as Record<symbol, unknown>)[SERVED_TIMER] : undefined;
    if (typeof cancel === 'function') (cancel as () => void)();
    else real(handle);
  };
}

/** The global clearTimeout, clearInterval and clearImmediate (node:timers' own are patched once, guardModules.ts). */
function serveClearTimers(): Restore[] {
  const restores: Restore[] = [];
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of ['clearTimeout', 'clearInterval', 'clearImmediate']) {
    const real = global[name];
    if (typeof real === 'function') restores.push(replace(global, name, cancelsServed(real as (handle?: unknown) => void)));
  }
  return restores;
}

/**
 * A global Node defines with a getter that loads it on first use (MessageChannel, BroadcastChannel):
 * loaded now and guarded as a plain value; the getter comes back on restore.
 */
function guardLazyGlobal(name: string): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!descriptor?.configurable || !('get' in descriptor) || descriptor.get === undefined) return guardProperty(globalThis, name, name);
  const value = descriptor.get.call(globalThis) as unknown;
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
  const restore = guardProperty(globalThis, name, name);
  return () => {
    restore?.();
    Object.defineProperty(globalThis, name, descriptor);
  };
}

export function guardGlobals(): Restore[] {
  const restores: Restore[] = [];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  add(guardProperty(globalThis, 'fetch', 'fetch'));
  add(guardProperty(globalThis, 'WebSocket', 'WebSocket'));
  add(guardProperty(Math, 'random', 'Math.random')); // allow-ambient: names what it guards
  add(guardProperty(globalThis, 'setTimeout', 'setTimeout')); // allow-ambient: names what it guards
  add(guardProperty(globalThis, 'setInterval', 'setInterval')); // allow-ambient: names what it guards
  add(guardProperty(globalThis, 'setImmediate', 'setImmediate')); // allow-ambient: names what it guards
  add(guardProperty(AbortSignal, 'timeout', 'AbortSignal.timeout'));
  add(guardProperty(globalThis, 'FinalizationRegistry', 'FinalizationRegistry'));
  add(guardLazyGlobal('MessageChannel'));
  add(guardLazyGlobal('BroadcastChannel'));
  // Web streams' compression runs zlib on the thread pool, where no world waits for it: refused (zlib's own streams are served).
  add(guardLazyGlobal('CompressionStream'));
  add(guardLazyGlobal('DecompressionStream'));
  for (const name of ['wait', 'waitAsync', 'notify']) add(guardProperty(Atomics, name, `Atomics.${name}`));
  restores.push(...guardDate(), ...guardIntl(), ...guardPerformance(), ...guardEventTimeStamp(), ...guardWebCrypto(), ...serveAllocUnsafe(), ...serveClearTimers());
  return restores;
}
