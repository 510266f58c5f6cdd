/**
 * node:os in a simulated process: the simulated machine (sandbox/simulatedMachine.ts), one fixed
 * machine on every run and every host. Its answers are constants of the machine, not steps (as a
 * process's own pid is no step). What it does not describe (setPriority among them) stays refused.
 */
import { MACHINE } from '../../sandbox/simulatedMachine.js';
import type { Served } from './serveContext.js';

export const OS_SERVED: [string, Served][] = [
  ...Object.entries(MACHINE).map(([name, answer]): [string, Served] => [`os.${name}`, (_ctx, args) => answer(...args)]),
  // A simulated process has no terminal: a library that asks (supports-color, debug) colours nothing.
  ['tty.isatty', () => false],
];
