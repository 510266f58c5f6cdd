/**
 * Node's own APIs, served by the simulated world while a journal holds the turn: the sandbox's
 * guards (guard/) ask the turn holder, the holder asks here. Each served call acts on the world
 * a journal would reach through env — the crash-consistent disk, the fake service, the virtual
 * clock, the scenario's draws — and is a step like an env call: an asynchronous one waits for the
 * scheduler, a synchronous one is one atomic step (atomicStep.ts). What is not in the table stays
 * an escape, refused with its explanation.
 */
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
import { PROCESS_SERVED } from './servedProcess.js';
import { SQLITE_SERVED } from './servedSqlite.js';

const TABLE = new Map<string, Served>([...CLOCK_SERVED, ...RANDOM_SERVED, ...TIMER_SERVED, ...FS_SERVED, ...FETCH_SERVED, ...HTTP_SERVED, ...OS_SERVED, ...MESSAGING_SERVED, ...ATOMICS_SERVED, ...PROCESS_SERVED, ...SQLITE_SERVED]);

/** The APIs the world serves, by the name the sandbox gives them (fs.promises.readFile, fetch, ...). */
export const SERVED_APIS: readonly string[] = [...TABLE.keys()].sort();

/**
 * The served APIs that are no step: constants of the simulated machine and process (node:os, its
 * user, umask, argv and thread, the performance clock's origin, CPU use that virtual time never
 * costs) and a process's own performance entries. A real process counting its steps as the simulator does (src/confirm/)
 * counts none of them either. (Every other served call is a step, or is made of steps.)
 */
export const NOT_STEPS: ReadonlySet<string> = new Set([...OS_SERVED.map(([api]) => api), ...PROCESS_SERVED.map(([api]) => api), ...CLOCK_CONSTANTS]);

export type { ServeContext, Served } from './serveContext.js';

export function serveCall(ctx: ServeContext, api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown): unknown {
  const served = TABLE.get(api);
  if (served === undefined) return NOT_SERVED;
  // The world's own work: memfs, msw and the clock are not the journal's code.
  return outsideTurn(() => served(ctx, args, thisArg, newTarget, real));
}
