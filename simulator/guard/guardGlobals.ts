/**
 * The globals a journal can reach without importing anything: the real clock (Date, performance,
 * Intl's "now"), randomness (Math.random, Web Crypto), timers, the global fetch. Each is refused (allow-ambient: names what it guards)
 * while a journal holds the turn. Buffer.allocUnsafe is served zero-filled under the turn, so a
 * journal that writes unfilled bytes writes the same bytes every run. Returns restore callbacks.
 */
import { guardFunction, guardProperty, refuse } from './guardFunction.js';
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
        const holder = turnHolder();
        if (holder !== null) refuse(holder, 'new Date()'); // allow-ambient: names what it guards
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
    if (new.target !== undefined) return Reflect.construct(RealDate, Array.prototype.slice.call(arguments), new.target) as Date;
    const holder = turnHolder();
    if (holder !== null) refuse(holder, 'Date()');
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
          if (holder !== null && date === undefined) refuse(holder, 'Intl.DateTimeFormat.format');
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
        if (holder !== null && date === undefined) refuse(holder, 'Intl.DateTimeFormat.formatToParts');
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
      if (holder !== null) refuse(holder, 'performance.timeOrigin');
      return origin;
    },
  });
  restores.push(() => delete perf.timeOrigin);
  return restores;
}

function guardWebCrypto(): Restore[] {
  const webCrypto = globalThis.crypto as unknown as Record<string, unknown> | undefined;
  if (!webCrypto) return [];
  const restores: Restore[] = [];
  for (const name of ['randomUUID', 'getRandomValues']) { // allow-ambient: names what it guards
    const original = webCrypto[name];
    if (typeof original === 'function') restores.push(replace(webCrypto, name, guardFunction((original as (...a: unknown[]) => unknown).bind(webCrypto), `crypto.${name}`)));
  }
  const subtle = webCrypto.subtle as Record<string, unknown> | undefined;
  const generateKey = subtle?.generateKey;
  if (subtle && typeof generateKey === 'function') restores.push(replace(subtle, 'generateKey', guardFunction((generateKey as (...a: unknown[]) => unknown).bind(subtle), 'crypto.subtle.generateKey')));
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
  restores.push(...guardDate(), ...guardIntl(), ...guardPerformance(), ...guardWebCrypto(), ...serveAllocUnsafe());
  return restores;
}
