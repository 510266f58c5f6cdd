/** Which faults a confirmation cannot run in real processes (realRun.ts says what it runs, and how). */
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { straceUnavailable } from './straceCommand.js';

/** The longest restart delay a confirmation runs (as a restart at once): a minute. */
export const MAX_REAL_RESTART_DELAY_MS = 60_000;

/** Why real processes cannot run this scenario's faults, or undefined when they can; `untraced`: why workers cannot run under strace here, if they cannot. */
export function unconfirmable(scenario: Scenario, untraced: string | undefined = straceUnavailable()): string | undefined {
  // Real processes restart a killed worker at once (realRun.ts), their clock the machine's: a worker down for longer is not run.
  if (scenario.restartDelayMs > MAX_REAL_RESTART_DELAY_MS && scenario.faults.some((f) => f.kind === 'crash')) return `its workers restart ${scenario.restartDelayMs} ms after a crash (restartDelayMs: a long outage), and real processes restart at once, on the machine's clock`;
  for (const [i, fault] of scenario.faults.entries()) {
    if (fault.kind === 'crash' && fault.mode !== 'keep-all' && untraced !== undefined) return `faults[${i}] is a machine crash (${fault.mode}), which is built from the workers' real system calls, and ${untraced}. Install strace (Debian: apt-get install strace)`;
    if (fault.kind === 'io-error') return `faults[${i}] is an I/O error (${fault.error}): a real disk cannot be made to fail on cue`;
  }
  return undefined;
}
