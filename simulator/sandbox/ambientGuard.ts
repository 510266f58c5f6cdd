/**
 * The sandbox: everything a journal could reach around `env` (this room's other files). Rules:
 * - Node's outward-facing modules are guarded whole, once per thread and forever (guardModules),
 *   inert outside a journal's turn. A worker thread installs them before it evaluates a journal.
 * - Globals and the process object are guarded while a simulation runs (reference-counted, so
 *   nested or sequential simulations share one installation).
 * - While a journal holds the turn (sandbox/turn.ts) a guarded call is an escape: recorded, refused
 *   with a message naming the env replacement. The process's identity is served instead.
 * - Simulations must not run interleaved on one thread: an escape could be charged to the wrong one.
 * - A thread is given to journals in two degrees, each for good:
 *   · permanent (installAmbientGuard({ permanent: true }): a pool worker, confirm's real process):
 *     the guards stay, and the objects every process of the thread shares are the journals' alone,
 *     so a crash forgets what a real one forgets: forgetProcessMemory(), at every incarnation's
 *     start, puts back what the journal changed on them (sharedObjects.ts: globalThis, process, the
 *     intrinsics, the builtin modules it was handed); what no restart could undo is kept from
 *     happening (guardPinning.ts), and there is no Buffer pool to carry bytes from one incarnation
 *     to the next (bufferPool.ts). Elsewhere (simulate() in a test runner's or an API caller's
 *     thread) the shared objects are also the host's: only the globals a journal added are taken away.
 *   · closed (closeThread(), only after permanent and after lockIntrinsics: the pool worker): code no
 *     turn holds is refused too (turn.ts), and the builtins durasim runs on are locked
 *     (lockIntrinsics.ts). The lock and the restore never fight: the restore's baseline is taken
 *     after the lock (at the first incarnation's start), so what the lock keeps from changing (a
 *     locked property, a prototype that cannot grow) is in the baseline as locked and never differs
 *     from it — the restore neither looks at the lock's accessors nor reports them unrestorable; a
 *     definition the lock lets through (a new property on a builtin) goes through guardPinning.ts,
 *     so it is configurable and taken back. The watched builtins the lock leaves unlocked
 *     (Array.prototype, Array, the array iterator) are put back by the restore too, but a change to
 *     one is noted before it is (lockIntrinsics.ts noteIntrinsicChanges) and reported after the
 *     run, as one seen at the run's end is: the thread is then used no more.
 *   The restore and its baseline are durasim's own work: in a closed thread they run as the
 *   machinery (turn.ts claimMachinery), never as code no turn holds.
 */
import { guardProperty } from './guardFunction.js';
import { guardGlobals } from './guardGlobals.js';
import { guardModules } from './guardModules.js';
import { guardProcess } from './guardProcess.js';
import { guardLocale } from './guardLocale.js';
import { guardIdentity } from './guardIdentity.js';
import { guardStacks } from './guardStacks.js';
import { guardChannels, refusedSetter } from './guardChannels.js';
import { serveWarnings } from './serveWarnings.js';
import { guardPinning } from './guardPinning.js';
import { noBufferPool } from './bufferPool.js';
import { trackBuiltinLoads } from './builtinLoads.js';
import { hideModuleCache } from './hideModuleCache.js';
import { trackChannels } from './trackChannels.js';
import { noteIntrinsicChanges } from './lockIntrinsics.js';
import { hasBaseline, isShared, takeBaseline, trackBuiltin as track, trackOwnModule as trackOwn } from './sharedBaseline.js';
import { restoreShared, type Restored } from './sharedObjects.js';
import { claimMachinery, closeThread as closeToNoTurn } from './turn.js';

export { asModuleLoad, callOfTurn, chargeNoTurnTo, claimMachinery, isJournalCode, isNoTurn, moduleLoading, NOT_SERVED, outsideTurn, runAsCall, runAsTurn, turnHolder, type Escape, type TurnHolder, type SimulatedProcess } from './turn.js';
export { atVirtualTime, SERVED_TIMER } from './guardGlobals.js';
export { ownThrown } from './ownThrown.js';
export { escapeReason, escapeFix } from './escapeCatalog.js';
export { SimulatedExit } from './guardProcess.js';
export type { Restored } from './sharedObjects.js';
export { JOURNAL_ROOT } from './simulatedMachine.js';
export { guardModule } from './guardModules.js';

let installs = 0;
let permanent = false;
let restores: (() => void)[] = [];

function install(): void {
  guardModules();
  restores = [...guardIdentity(), ...guardStacks(), ...guardGlobals(), ...guardLocale(), ...guardProcess(), ...guardChannels(), ...guardPinning(), ...noBufferPool(), ...trackBuiltinLoads(), ...hideModuleCache(), ...serveWarnings(permanent)];
  const report = (process as unknown as { report?: object }).report;
  if (report) for (const name of ['getReport', 'writeReport']) {
    const restore = guardProperty(report, name, `process.report.${name}`);
    if (restore) restores.push(restore);
  }
  // Its settings (directory, filename, signal…) are the thread's, kept by Node where no restart undoes them.
  if (report) for (const name of Object.keys(report)) {
    const restore = refusedSetter(report, name, `process.report.${name}`);
    if (restore) restores.push(restore);
  }
  restores.push(...trackChannels());
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
 * Makes this thread closed to code no turn holds (turn.ts), for good. Only a thread whose sandbox is
 * installed for good is closed (see the rules): one closed but not permanent would refuse its host's
 * own code and never put back what a journal left.
 */
export function closeThread(): void {
  if (installs === 0 || !permanent) throw new Error('a thread is closed only once its sandbox is installed for good (installAmbientGuard({ permanent: true }))');
  closeToNoTurn();
}

/** durasim's own work on the shared objects (their baseline, their restore): passes the guards of a closed thread as the real calls. */
const machinery = claimMachinery();

/**
 * At an incarnation's start: what the journal left on the objects every process of this thread
 * shares is put back (sharedObjects.ts), and named; a watched builtin it replaced is noted first
 * (lockIntrinsics.ts, in a locked thread). The first call in a thread whose sandbox is installed
 * for good takes the baseline instead, before any incarnation (after the lock, in a locked
 * thread). Elsewhere (simulate() called in a test runner's or an application's thread) there is
 * nothing that is the journal's alone to put back to: undefined, and the caller forgets only the
 * globals the journal added.
 */
export function forgetProcessMemory(): Restored | undefined {
  if (hasBaseline()) {
    noteIntrinsicChanges();
    return machinery(restoreShared);
  }
  // Only a thread given to journals for good (a pool worker, confirm's real process) is put back:
  // elsewhere the shared objects are also its host's (a test runner's, an API caller's), whose own
  // changes a restore would undo (a test process's listeners and globals: it hung confirm beside it).
  if (installs === 0 || !permanent) return undefined;
  machinery(takeBaseline);
  return { restored: [], unrestorable: [] };
}

/**
 * Takes the thread's baseline now, if a first incarnation has not (a pool worker's first load: durasim's own work, before
 * the journal's top level runs and its time is counted). Elsewhere, as forgetProcessMemory: nothing.
 */
export function takeSharedBaseline(): void {
  if (!hasBaseline() && installs > 0 && permanent) machinery(takeBaseline);
}

/** One of durasim's modules handed to a journal (a shared import): what the journal does to its exports is put back at the next incarnation's start. */
export function trackOwnModule(id: string, namespace: unknown): void {
  if (hasBaseline() && !isShared(namespace)) machinery(() => trackOwn(id, namespace));
}

/** A builtin module handed to a journal (its require): what the journal does to it is put back at the next incarnation's start. */
export function trackBuiltin(id: string, exports: unknown): void {
  if (hasBaseline() && !isShared(exports)) machinery(() => track(id, exports));
}
