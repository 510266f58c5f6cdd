/**
 * The sandbox: everything a journal could reach around `env` (this room's other files). Rules:
 * - Node's outward-facing modules are guarded whole, once per thread and forever (guardModules),
 *   inert outside a journal's turn. A worker thread installs them before it evaluates a journal.
 * - Globals and the process object are guarded while a simulation runs (reference-counted, so
 *   nested or sequential simulations share one installation); `permanent` keeps them for good
 *   (a worker thread that does nothing else).
 * - While a journal holds the turn (sandbox/turn.ts) a guarded call is an escape: recorded, refused
 *   with a message naming the env replacement. The process's identity is served instead.
 * - Simulations must not run interleaved on one thread: an escape could be charged to the wrong one.
 * - A crash forgets what a real one forgets: forgetProcessMemory(), at every incarnation's start,
 *   puts back what the journal changed on the objects every process of the thread shares
 *   (sharedObjects.ts: globalThis, process, the intrinsics, the builtin modules it was handed); what
 *   no restart could undo is kept from happening (guardPinning.ts), and there is no Buffer pool to
 *   carry bytes from one incarnation to the next (bufferPool.ts).
 */
import { guardProperty } from './guardFunction.js';
import { guardGlobals } from './guardGlobals.js';
import { guardModules } from './guardModules.js';
import { guardProcess } from './guardProcess.js';
import { guardLocale } from './guardLocale.js';
import { guardIdentity } from './guardIdentity.js';
import { guardStacks } from './guardStacks.js';
import { guardChannels } from './guardChannels.js';
import { guardPinning } from './guardPinning.js';
import { noBufferPool } from './bufferPool.js';
import { trackBuiltinLoads } from './builtinLoads.js';
import { hasBaseline, isShared, restoreShared, takeBaseline, trackBuiltin as track, type Restored } from './sharedObjects.js';
import { outsideTurn } from './turn.js';

export { asModuleLoad, callOfTurn, moduleLoading, NOT_SERVED, outsideTurn, runAsCall, runAsTurn, turnHolder, type Escape, type TurnHolder, type SimulatedProcess } from './turn.js';
export { atVirtualTime, SERVED_TIMER } from './guardGlobals.js';
export { escapeReason, escapeFix } from './escapeCatalog.js';
export { SimulatedExit } from './guardProcess.js';
export type { Restored } from './sharedObjects.js';
export { JOURNAL_ROOT } from './simulatedMachine.js';

let installs = 0;
let permanent = false;
let restores: (() => void)[] = [];

function install(): void {
  guardModules();
  restores = [...guardIdentity(), ...guardStacks(), ...guardGlobals(), ...guardLocale(), ...guardProcess(), ...guardChannels(), ...guardPinning(), ...noBufferPool(), ...trackBuiltinLoads()];
  const report = (process as unknown as { report?: object }).report;
  if (report) for (const name of ['getReport', 'writeReport']) {
    const restore = guardProperty(report, name, `process.report.${name}`);
    if (restore) restores.push(restore);
  }
}

export function installAmbientGuard(options: { permanent?: boolean } = {}): void {
  if (options.permanent) permanent = true;
  installs++;
  if (installs === 1 && restores.length === 0) install();
}

export function uninstallAmbientGuard(): void {
  installs = Math.max(0, installs - 1);
  if (installs > 0 || permanent) return;
  while (restores.length > 0) (restores.pop() as () => void)();
}

/**
 * At an incarnation's start: what the journal left on the objects every process of this thread
 * shares is put back (sharedObjects.ts), and named. The first call in a thread whose sandbox is
 * installed for good (installAmbientGuard({ permanent: true }): a pool worker, confirm's real
 * process) takes the baseline instead, before any incarnation. Elsewhere (simulate() called in a
 * test runner's or an application's thread) there is nothing that is the journal's alone to put
 * back to: undefined, and the caller forgets only the globals the journal added.
 */
export function forgetProcessMemory(): Restored | undefined {
  // Outside any turn: the getters it reads (a served console, a lazily loaded global) give what they give the simulator.
  if (hasBaseline()) return outsideTurn(restoreShared);
  // Only a thread given to journals for good (a pool worker, confirm's real process) is put back:
  // elsewhere the shared objects are also its host's (a test runner's, an API caller's), whose own
  // changes a restore would undo (a test process's listeners and globals: it hung confirm beside it).
  if (installs === 0 || !permanent) return undefined;
  outsideTurn(takeBaseline);
  return { restored: [], unrestorable: [] };
}

/** A builtin module handed to a journal (its require): what the journal does to it is put back at the next incarnation's start. */
export function trackBuiltin(id: string, exports: unknown): void {
  if (hasBaseline() && !isShared(exports)) outsideTurn(() => track(id, exports));
}
