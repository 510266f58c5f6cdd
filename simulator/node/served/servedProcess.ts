/**
 * The simulated process as `process` and node:worker_threads describe it (sandbox/simulatedMachine.ts
 * PROCESS): its user and groups, its umask, how it was started (argv, execPath, execArgv), its
 * thread (the main one: no parentPort, no workerData). Constants of the process, not steps, as its
 * pid is; what it changes (its umask, its argv array) is its own and a restart forgets it.
 */
import { INITIAL_UMASK, PROCESS, type ProcessState } from '../../sandbox/simulatedMachine.js';
import type { Proc } from '../../world/proc.js';
import type { Served } from './serveContext.js';

const states = new WeakMap<Proc, ProcessState>();

function stateOf(proc: Proc): ProcessState {
  let state = states.get(proc);
  if (state === undefined) states.set(proc, (state = { umask: INITIAL_UMASK }));
  return state;
}

export const PROCESS_SERVED: [string, Served][] = Object.entries(PROCESS).map(([api, answer]): [string, Served] => [api, (ctx, args) => answer(args, stateOf(ctx.proc))]);
