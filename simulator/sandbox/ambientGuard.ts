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
 */
import { guardProperty } from './guardFunction.js';
import { guardGlobals } from './guardGlobals.js';
import { guardModules } from './guardModules.js';

export { hideWorkerThread } from './guardModules.js';
import { guardProcess } from './guardProcess.js';
import { guardLocale } from './guardLocale.js';
import { guardStackFormat } from './guardStackFormat.js';

export { asModuleLoad, callOfTurn, chargeNoTurnTo, claimMachinery, closeThread, isJournalCode, isNoTurn, moduleLoading, NOT_SERVED, outsideTurn, runAsCall, runAsTurn, turnHolder, type Escape, type TurnHolder, type SimulatedProcess } from './turn.js';
export { atVirtualTime, SERVED_TIMER } from './guardGlobals.js';
export { ownThrown } from './ownThrown.js';
export { escapeReason, escapeFix } from './escapeCatalog.js';
export { SimulatedExit } from './guardProcess.js';

let installs = 0;
let permanent = false;
let restores: (() => void)[] = [];

/**
 * memfs asks the OS for the uid and gid on every file operation (a syscall each, about a quarter
 * of a simulation's time). They cannot change while we run, so they are answered from a cache.
 */
function cacheIdentity(): (() => void)[] {
  const out: (() => void)[] = [];
  for (const name of ['getuid', 'getgid'] as const) {
    const original = process[name];
    if (typeof original !== 'function') continue;
    const value = original.call(process);
    (process as unknown as Record<string, unknown>)[name] = () => value;
    out.push(() => {
      (process as unknown as Record<string, unknown>)[name] = original;
    });
  }
  return out;
}

function install(): void {
  guardModules();
  restores = [...cacheIdentity(), ...guardGlobals(), ...guardLocale(), ...guardProcess(), guardStackFormat()];
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
