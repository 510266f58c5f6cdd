/**
 * A worker's step, granted by the scheduler (World.run picks which ready worker): numbered and
 * traced, open to the scenario's faults at that step — a crash before it (the step never happens),
 * an I/O error armed for its disk call alone, a pause that freezes the worker with the step granted
 * but not yet taken effect, a crash after it (it happened; the worker never hears) — then run, its
 * result traced when it says something, and the turn handed back. The synchronous counterpart is
 * atomicStep.ts.
 */
import { startStep, type Outcome, type PendingStep, type Proc } from './proc.js';
import type { StepHost } from './host.js';

export async function grantStep(world: StepHost, proc: Proc): Promise<void> {
  const request = proc.pending.shift() as PendingStep;
  const step = proc.calls++;
  const globalStep = world.globalStep++;
  world.beat(globalStep, proc, request.op);
  world.recordStep(proc, step, globalStep, request.op, request.detail, request.call);
  const { before, after, io, pause } = world.faultsFor(proc, step, request.op, request.detail);
  if (before) {
    world.crash(proc, before);
    return;
  }
  // An I/O error is armed for this step alone: taken by its disk call, disarmed when the step completes or yields.
  const endIo = world.disk.faults.armFor(io, request.op, (detail) => world.record({ actor: 'disk', op: 'io-error', detail }));
  let completed = false;
  proc.inFlight.set(step, request);
  const complete = (outcome: Outcome<unknown>): void => {
    if (completed) return;
    endIo();
    completed = true;
    proc.inFlight.delete(step);
    if (!proc.alive || proc.done || world.internalError) return;
    if (outcome.note !== undefined) {
      world.recordResult(proc, step, request.op, outcome.note);
    }
    if (world.cutsAfter(globalStep)) return;
    if (after) {
      world.crash(proc, after);
      return;
    }
    if (proc.pending.length === 0 && proc.inFlight.size === 0) world.turns.resume(proc);
    else world.turns.lastRunner = proc;
    if (outcome.ok) request.resolve(outcome.value);
    else request.reject(outcome.error);
  };
  const start = (): Promise<void> => startStep(request, complete, (error) => world.fail(error));
  // A pause: the worker freezes with the step granted but not yet taken effect (others run meanwhile).
  if (pause) world.record({ actor: 'supervisor', op: 'pause', detail: `${proc.name} freezes for ${pause.pauseMs} ms` });
  if (pause) world.procTimer(proc, pause.pauseMs, 'pause', () => void start());
  else await start();
  endIo();
  // The worker now holds the turn until its next env call, even across its own awaits.
  await world.turns.quiesce();
}
