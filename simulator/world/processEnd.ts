/**
 * How a process ends, as Node ends one: run() returned → its 'beforeExit' listeners run once, and
 * what they start runs on until nothing of it is left; every end but a crash runs the 'exit'
 * listeners (synchronous work only); a failed end (an error, process.exit(n ≠ 0)) restarts the
 * worker. Its requests count as done, its timers die, its open files close. An uncaught exception
 * or unhandled rejection of its code goes to its own 'unhandledRejection' (a rejection) or
 * 'uncaughtException' listeners, as Node's does: one that took it lets the process live on; a
 * listener that throws ends it (Node's exit code 7); with none, the error ends it.
 */
import { errorText } from './errorText.js';
import { maskSecrets } from '../../model/contract/secret.js';
import { ownThrown, runAsTurn } from '../sandbox/ambientGuard.js';
import type { EndHost } from './host.js';
import type { Proc } from './proc.js';

/** Whether an ending process has nothing left of what its 'beforeExit' listeners started: no step queued or under way, no timer of theirs. */
export function quietEnding(proc: Proc): boolean {
  const left = proc.ending;
  return left !== false && proc.pending.length === 0 && proc.inFlight.size === 0 && [...proc.timers].every((t) => left.has(t));
}

/**
 * run() has returned: the process ends (what it left pending dies with it, as the simulator has
 * always ended a process), after its 'beforeExit' listeners ran (once): what they start runs on,
 * and the process ends when nothing it started is left (turns.ts).
 */
export function naturalEnd(world: EndHost, proc: Proc): void {
  if (!proc.alive || proc.done || proc.ending) return;
  const left = new Set(proc.timers);
  const before = { pending: proc.pending.length, inFlight: proc.inFlight.size };
  if (!runListeners(world, proc, 'beforeExit', 0)) return;
  if (proc.pending.length > before.pending || proc.inFlight.size > before.inFlight || [...proc.timers].some((t) => !left.has(t))) proc.ending = left;
  else exitProcess(world, proc, undefined);
}

/** The process is ending and nothing its 'beforeExit' listeners started is left: it ends (a timer run() left behind dies with it). */
export function endIfQuiet(world: EndHost, proc: Proc): void {
  if (proc.alive && !proc.done && quietEnding(proc)) exitProcess(world, proc, undefined);
}

/**
 * Runs the journal's listeners for `event` on its simulated process, as its own code; false when
 * the process did not live through them (a crash at a step they took, or process.exit()).
 */
function runListeners(world: EndHost, proc: Proc, event: 'beforeExit' | 'exit', code: number): boolean {
  const listeners = proc.simulated.listeners?.get(event);
  if (listeners === undefined || listeners.length === 0) return true;
  world.record({ actor: 'supervisor', op: event, detail: `${proc.name}: ${listeners.length} '${event}' listener(s) run (code ${code})` });
  for (const listener of [...listeners]) {
    if (listener.once) listeners.splice(listeners.indexOf(listener), 1);
    try {
      runAsTurn(proc, () => listener.fn.call(process, code));
    } catch (thrown) {
      if (!proc.alive || proc.done) return false;
      const error = runAsTurn(proc, () => ownThrown(thrown));
      world.record({ actor: 'supervisor', op: event, detail: `${proc.name}: a '${event}' listener threw ${errorText(error)}` });
    }
    if (!proc.alive || proc.done) return false;
  }
  return true;
}

/** The incarnation ends, finished (`error` undefined) or failed, after its 'exit' listeners; a failed one restarts. */
export function exitProcess(world: EndHost, proc: Proc, error: unknown, code = error === undefined ? 0 : 1): void {
  if (!proc.alive || proc.done || proc.exiting) return;
  // 'exit' listeners run on every end of the process but a crash: synchronous work only, as Node's.
  proc.exiting = true;
  const lived = runListeners(world, proc, 'exit', code);
  proc.exiting = false;
  if (!lived || !proc.alive || proc.done) return;
  proc.done = true;
  for (const request of world.service.requests) if (request.sender === proc.name) request.doneSeq ??= world.trace.length;
  for (const timer of proc.timers) world.clock.cancel(timer);
  proc.timers.clear();
  world.turns.yielded(proc);
  world.disk.closeOwnedBy(proc.pid);
  if (error === undefined) {
    world.exits.push({ pid: proc.pid, incarnation: proc.incarnation });
    world.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} finished` });
    return;
  }
  const message = (world.masksSecrets ? maskSecrets : String)(errorText(error));
  const frames = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12).map((line) => line.trim()) : [];
  world.exits.push({ pid: proc.pid, incarnation: proc.incarnation, error: message, ...(frames.length > 0 ? { stack: (world.masksSecrets ? maskSecrets : String)(frames.join('\n')) } : {}) });
  world.record({ actor: 'supervisor', op: 'exit', detail: `${proc.name} failed: ${message}` });
  world.scheduleRestart(proc);
}

/** `proc` dies at once (a crash, the run halting): no listener runs, what it awaited never settles, its timers die. */
export function killProcess(world: EndHost, proc: Proc): void {
  proc.alive = false;
  for (const request of world.service.requests) if (request.sender === proc.name) request.doneSeq ??= world.trace.length;
  world.turns.yielded(proc);
  proc.pending.length = 0;
  proc.inFlight.clear();
  for (const timer of proc.timers) world.clock.cancel(timer);
  proc.timers.clear();
}

/**
 * An uncaught exception or unhandled rejection of `proc`'s code, offered to its listeners as Node
 * offers it: a rejection to its 'unhandledRejection' listeners, else either to its
 * 'uncaughtException' listeners (with its origin). False when it has none: the error ends it.
 */
export function offerUncaught(world: EndHost, proc: Proc, thrown: unknown, origin: 'uncaughtException' | 'unhandledRejection'): boolean {
  const event = origin === 'unhandledRejection' && (proc.simulated.listeners?.get('unhandledRejection')?.length ?? 0) > 0 ? 'unhandledRejection' : 'uncaughtException';
  const listeners = proc.simulated.listeners?.get(event);
  if (listeners === undefined || listeners.length === 0) return false;
  world.record({ actor: 'supervisor', op: event, detail: `${proc.name}: ${listeners.length} '${event}' listener(s) run` });
  for (const listener of [...listeners]) {
    if (listener.once) listeners.splice(listeners.indexOf(listener), 1);
    try {
      runAsTurn(proc, () => (event === 'unhandledRejection' ? listener.fn.call(process, thrown, undefined) : listener.fn.call(process, thrown, origin)));
    } catch (again) {
      if (!proc.alive || proc.done) return true;
      const error = runAsTurn(proc, () => ownThrown(again));
      exitProcess(world, proc, new Error(`unhandled: ${errorText(error)} (thrown by its '${event}' listener)`), 7);
      return true;
    }
    if (!proc.alive || proc.done) return true;
  }
  return true;
}

/** process.exit(code) from the journal: the incarnation ends as a process would, finished or failed. */
export function exitByCall(world: EndHost, proc: Proc, code: number): void {
  // A process's exit status is its code's low eight bits (process.exit(256) is a success, -1 is 255), as the OS makes it.
  const status = code & 0xff;
  // The error stands for the exit code, not for a place in the journal's code: it carries no frames.
  exitProcess(world, proc, status === 0 ? undefined : Object.assign(new Error(`process.exit(${code})`), { stack: `Error: process.exit(${code})` }), status);
}

/** An unhandled rejection or uncaught exception: it ends the incarnation that last ran, as it would end a process. */
export function endByUncaught(world: EndHost, thrown: unknown, origin: 'uncaughtException' | 'unhandledRejection'): void {
  const proc = world.turns.lastRunner;
  // The process's own listeners take it first, as Node's would (offerUncaught).
  if (proc && proc.alive && !proc.done && offerUncaught(world, proc, thrown, origin)) return;
  // What was thrown, read as the code of the incarnation that last ran (sandbox/ownThrown.ts).
  const error = proc ? runAsTurn(proc, () => ownThrown(thrown)) : ownThrown(thrown);
  const message = errorText(error);
  if (proc && proc.alive && !proc.done) exitProcess(world, proc, new Error(`unhandled: ${message}`));
  else world.record({ actor: 'supervisor', op: 'unhandled', detail: message });
}
