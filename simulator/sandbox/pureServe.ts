/**
 * What a module sees of the world while it loads or while inspect() reads a disk image: no
 * process runs, so nothing there is a step. A clock read gives the virtual time given (a library
 * that stamps its start at import is served, not refused); a timer is accepted and never fires; a
 * random draw is a deterministic stream of its own; node:os describes the simulated machine, and
 * `process` and node:worker_threads the simulated process (simulatedMachine.ts). The disk and the network stay refused: inspect()
 * reads only the disk view it is handed, and a module that does I/O as it loads is an escape.
 */
import { NOT_SERVED, SERVED_TIMER, type TurnHolder } from './ambientGuard.js';
import { derivedBytes, uuidOf } from './derivedBytes.js';
import { INITIAL_UMASK, MACHINE, PROCESS, type ProcessState } from './simulatedMachine.js';

const CLOCK = new Set(['Date.now', // allow-ambient: names what it serves
  'new Date()', 'Date()', 'Intl.DateTimeFormat.format', 'Intl.DateTimeFormat.formatToParts', 'performance.timeOrigin']); // allow-ambient: names what it serves
const TIMERS = new Set([ // allow-ambient: names what it serves
  'setTimeout', 'setInterval', 'setImmediate', 'timers.setTimeout', 'timers.setInterval', 'timers.setImmediate']); // allow-ambient: names what it serves
const PROMISED = new Set([ // allow-ambient: names what it serves
  'timers.promises.setTimeout', 'timers.promises.setImmediate', 'timers.promises.scheduler.wait', 'timers.promises.scheduler.yield', 'setTimeout.[nodejs.util.promisify.custom]', 'setImmediate.[nodejs.util.promisify.custom]']); // allow-ambient: names what it serves

/** The real FinalizationRegistry, taken before the sandbox guards it: a registry made here never calls back (node/served/servedFinalizers.ts). */
const Registry = FinalizationRegistry;

/** A timer that never fires: the shape of Node's Timeout, with nothing behind it. */
function inertTimer(): object {
  const timer = { ref: () => timer, unref: () => timer, hasRef: () => false, refresh: () => timer, close: () => timer, [Symbol.toPrimitive]: () => 0, [SERVED_TIMER]: () => {} };
  return timer;
}

export function pureServe(nowMs: () => number): NonNullable<TurnHolder['serve']> {
  let draws = 0;
  const state: ProcessState = { umask: INITIAL_UMASK };
  const bytes = (length: number): Buffer => derivedBytes(`durasim.pure:${draws++}`, length);
  return (api, args, _thisArg, newTarget) => {
    if (CLOCK.has(api)) return nowMs();
    const machine = api.startsWith('os.') ? MACHINE[api.slice(3)] : undefined;
    if (machine) return machine(...args);
    const identity = PROCESS[api];
    if (identity) return identity(args, state);
    if (api === 'performance.now' || api === 'Event.timeStamp' || api === 'process.uptime') return 0; // allow-ambient: names what it serves
    if (api === 'process.hrtime') return [0, 0];
    if (api === 'process.hrtime.bigint') return 0n;
    if (api === 'process.cpuUsage') return { user: 0, system: 0 };
    if (TIMERS.has(api)) return inertTimer();
    if (PROMISED.has(api)) return new Promise(() => {});
    if (api === 'AbortSignal.timeout') return new AbortController().signal;
    if (api === 'tty.isatty') return false;
    if (api === 'FinalizationRegistry' && newTarget !== undefined) return Reflect.construct(Registry, [() => {}], newTarget as typeof Registry);
    if (api === 'Math.random' || api === 'crypto.randomInt') return api === 'Math.random' ? 0 : (args.length >= 2 ? (args[0] as number) : 0); // allow-ambient: names what it serves
    if (api === 'crypto.randomUUID') return uuidOf(bytes(16)); // allow-ambient: names what it serves
    if (api === 'crypto.randomBytes' && typeof args[1] !== 'function') return bytes(args[0] as number);
    if ((api === 'crypto.getRandomValues' || api === 'crypto.randomFillSync') && ArrayBuffer.isView(args[0])) {
      const view = args[0];
      new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(bytes(view.byteLength));
      return view;
    }
    return NOT_SERVED;
  };
}
