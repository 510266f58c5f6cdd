/** What a served Node API is handed: the world it takes its steps on, and the incarnation that called. */
import { runAsCall, runAsTurn } from '../../sandbox/ambientGuard.js';
import type { StepHost } from '../../world/host.js';
import type { Proc } from '../../world/proc.js';

export interface ServeContext {
  world: StepHost;
  proc: Proc;
  /** The call of run() that made it (sandbox/turn.ts callOfTurn; 0 when absent). */
  call?: number;
}

/**
 * Runs `run` as code of the incarnation and the call of run() that made the served call: a callback
 * it answers, a timer or listener it set up (Node runs them in the async context they were set up in).
 */
export function asCaller<T>(ctx: ServeContext, run: () => T): T {
  return runAsTurn(ctx.proc, () => runAsCall(ctx.call ?? 0, run));
}

/**
 * A served API: what the call returns (or throws) in the simulated world. `real` makes Node's own
 * call (for an API served by running Node's own code on served calls, as its file streams are).
 */
export type Served = (ctx: ServeContext, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown) => unknown;

/** A write's bytes, noted for the run's payload hash when it runs. */
export function written(ctx: ServeContext, bytes: Buffer): Buffer {
  ctx.world.notePayload(bytes);
  return bytes;
}
