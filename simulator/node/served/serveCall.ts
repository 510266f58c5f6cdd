/**
 * Node's own APIs, served by the simulated world while a journal holds the turn: the sandbox's
 * guards (guard/) ask the turn holder, the holder asks here. Each served call acts on the world
 * a journal would reach through env — the crash-consistent disk, the fake service, the virtual
 * clock, the scenario's draws — and is a step like an env call: an asynchronous one waits for the
 * scheduler, a synchronous one is one atomic step (atomicStep.ts). What is not in the table stays
 * an escape, refused with its explanation.
 */
import { types } from 'node:util';
import { NOT_SERVED, outsideTurn } from '../../sandbox/ambientGuard.js';
import type { ServeContext, Served } from './serveContext.js';
import { CLOCK_CONSTANTS, CLOCK_SERVED } from './servedClock.js';
import { FETCH_SERVED } from './servedFetch.js';
import { FS_SERVED } from './servedFs.js';
import { HTTP_SERVED } from './servedHttp.js';
import { RANDOM_SERVED } from './servedRandom.js';
import { TIMER_SERVED } from './servedTimers.js';
import { OS_SERVED } from './servedOs.js';
import { MESSAGING_SERVED } from './servedMessaging.js';
import { ATOMICS_SERVED } from './servedAtomics.js';
import { THREAD_POOL_SERVED } from './servedThreadPool.js';
import { FINALIZERS_SERVED } from './servedFinalizers.js';
import { PROCESS_SERVED } from './servedProcess.js';
import { SQLITE_SERVED } from './servedSqlite.js';

const TABLE = new Map<string, Served>([...CLOCK_SERVED, ...RANDOM_SERVED, ...TIMER_SERVED, ...FS_SERVED, ...FETCH_SERVED, ...HTTP_SERVED, ...OS_SERVED, ...MESSAGING_SERVED, ...ATOMICS_SERVED, ...PROCESS_SERVED, ...THREAD_POOL_SERVED, ...FINALIZERS_SERVED, ...SQLITE_SERVED]);

/** The APIs the world serves, by the name the sandbox gives them (fs.promises.readFile, fetch, ...). */
export const SERVED_APIS: readonly string[] = [...TABLE.keys()].sort();

/**
 * The served APIs that are no step: constants of the simulated machine and process (node:os, its
 * user, umask, argv and thread, the performance clock's origin, CPU use that virtual time never
 * costs) and a process's own performance entries, work on Node's thread pool (servedThreadPool.ts)
 * and finalization registries. A real process counting its steps as the simulator does (src/confirm/)
 * counts none of them either. (Every other served call is a step, or is made of steps.)
 */
export const NOT_STEPS: ReadonlySet<string> = new Set([...OS_SERVED.map(([api]) => api), ...PROCESS_SERVED.map(([api]) => api), ...CLOCK_CONSTANTS, ...THREAD_POOL_SERVED.map(([api]) => api), ...FINALIZERS_SERVED.map(([api]) => api)]);

export type { ServeContext, Served } from './serveContext.js';

export function serveCall(ctx: ServeContext, api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown): unknown {
  const served = TABLE.get(api);
  if (served === undefined) return NOT_SERVED;
  // What the world reads of the arguments is read here, in the journal's turn: its getters and Proxy traps run as its own code.
  const plain = args.map((arg) => plainArg(arg, 0));
  // The world's own work: memfs, msw and the clock are not the journal's code.
  return outsideTurn(() => served(ctx, plain, thisArg, newTarget, real));
}

/**
 * An argument as the world reads it: a plain object or an array (an options object, a list of
 * buffers), or a Proxy of one, copied — its own enumerable properties read now, nested ones too,
 * and its conversions (valueOf, toString, Symbol.toPrimitive) made now — so no getter, trap or
 * conversion of the journal's runs later inside durasim's own work, where no turn holds (there,
 * any guarded call it made would be refused). Functions (callbacks), buffers and the instances of
 * classes (a URL, a signal, a served handle) are passed as they are.
 */
function plainArg(arg: unknown, depth: number): unknown {
  if (typeof arg !== 'object' || arg === null || depth > 3) return arg;
  const proxy = types.isProxy(arg);
  if (Array.isArray(arg)) return arg.map((item) => plainArg(item, depth + 1));
  const prototype = Object.getPrototypeOf(arg) as unknown;
  if (!proxy && prototype !== Object.prototype && prototype !== null) return arg;
  const copy: Record<PropertyKey, unknown> = prototype === null ? Object.create(null) : {};
  const source = arg as Record<PropertyKey, unknown>;
  for (const key of Object.keys(arg)) copy[key] = plainArg(source[key], depth + 1);
  for (const key of ['valueOf', 'toString']) {
    const convert = source[key];
    if (typeof convert === 'function' && convert !== (Object.prototype as unknown as Record<string, unknown>)[key]) Reflect.set(copy, key, madeNow(() => (convert as () => unknown).call(arg)));
  }
  const toPrimitive = source[Symbol.toPrimitive];
  if (typeof toPrimitive === 'function') {
    const hints = new Map(['default', 'number', 'string'].map((hint) => [hint, madeNow(() => (toPrimitive as (hint: string) => unknown).call(arg, hint))]));
    copy[Symbol.toPrimitive] = (hint: string) => (hints.get(hint) ?? (() => undefined))();
  }
  return copy;
}

/** What `make` gives (or throws), made now: a function that gives (or throws) it again. */
function madeNow(make: () => unknown): () => unknown {
  try {
    const value = make();
    return () => value;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}
