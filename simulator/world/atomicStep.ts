/**
 * A synchronous Node call of a journal (fs.writeFileSync, a clock read, a random draw): one atomic step.
 * It is numbered, traced and open to the scenario's faults exactly like an env call, but it runs
 * at once, in the caller's stack: a synchronous call cannot wait for the scheduler. A crash placed
 * before or after it kills the process there and then: the call throws ProcessEnded into the
 * journal's code, which from then on runs as a ghost that reaches nothing (every later served call
 * throws again or never settles, as the crash took the process with it; a timer is answered
 * inertly, since Node's own code may set one in a dead process's context, as it does on the way to
 * reporting an uncaught exception).
 */
import { atVirtualTime, callOfTurn, moduleLoading } from '../sandbox/ambientGuard.js';
import { SimulatorInvariantError } from '../invariant.js';
import { MODULE_LOAD_VERSION } from '../scenario/scenario.js';
import type { Proc } from './proc.js';
import { errorCode } from './trace.js';
import type { StepHost } from './host.js';
import { boundStop } from './boundStop.js';

/** Thrown into journal code by a synchronous call its process did not survive (a crash, or the run's end). */
export class ProcessEnded extends Error {
  constructor(proc: Proc, why: string) {
    super(`${proc.name} ${why}: nothing after this point runs in a real process`);
    this.name = 'ProcessEnded';
  }
}

/**
 * `ghost` answers a call from code whose process is gone (or whose run is over) where an answer
 * changes nothing in the world (a timer that will never fire); without it such a call throws
 * ProcessEnded.
 */
export function atomicStep<T>(world: StepHost, proc: Proc, op: string, detail: string, run: () => T, ghost?: () => T): T {
  if (!proc.alive || proc.done) {
    if (ghost) return ghost();
    throw new ProcessEnded(proc, 'is no longer running');
  }
  if (world.stop !== null) {
    if (ghost) return ghost();
    throw new ProcessEnded(proc, 'was stopped with the run');
  }
  // What a module does while it loads is served but is no step (sandbox/turn.ts asModuleLoad), from format 3 on.
  if (moduleLoading() && world.scenario.version >= MODULE_LOAD_VERSION) return served(world, proc, run);
  if (world.globalStep >= world.bounds.maxSteps) {
    world.haltAll(boundStop(world.bounds, 'steps', `${world.globalStep} steps taken`, world.scenario.version, `${world.globalStep} steps taken, the bound is ${world.bounds.maxSteps}`));
    throw new ProcessEnded(proc, 'was stopped with the run');
  }
  const step = proc.calls++;
  const globalStep = world.globalStep++;
  world.beat(globalStep, proc, op);
  world.recordStep(proc, step, globalStep, op, detail, callOfTurn());
  const { before, after, io } = world.faultsFor(proc, step, op, detail);
  if (before) {
    world.crash(proc, before);
    throw new ProcessEnded(proc, `crashed before ${op}`);
  }
  const endIo = world.disk.faults.armFor(io, op, (what) => world.record({ actor: 'disk', op: 'io-error', detail: what }));
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: atVirtualTime(world.clock.epochMs, run) };
  } catch (error) {
    if (error instanceof SimulatorInvariantError) {
      world.fail(error);
      throw new ProcessEnded(proc, 'was stopped with the run');
    }
    outcome = { ok: false, error };
  } finally {
    endIo();
  }
  if (!outcome.ok) world.recordResult(proc, step, op, errorCode(outcome.error));
  // A synchronous caller may take its next step at once, before the scheduler looks again: what this one made durable is observed now.
  world.observeDurable();
  if (after) {
    world.crash(proc, after);
    throw new ProcessEnded(proc, `crashed after ${op}`);
  }
  if (world.cutsAfter(globalStep)) throw new ProcessEnded(proc, 'was stopped with the run');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** A call made while a module loads: served at the virtual time, no step (no number, no fault), its error the journal's. */
function served<T>(world: StepHost, proc: Proc, run: () => T): T {
  try {
    return atVirtualTime(world.clock.epochMs, run);
  } catch (error) {
    if (error instanceof SimulatorInvariantError) {
      world.fail(error);
      throw new ProcessEnded(proc, 'was stopped with the run');
    }
    throw error;
  }
}
