/** Which faults a confirmation cannot run in real processes (realRun.ts says what it runs, and how). */
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { straceUnavailable } from './straceCommand.js';

/** Why real processes cannot run this scenario's faults, or undefined when they can; `untraced`: why workers cannot run under strace here, if they cannot. */
export function unconfirmable(scenario: Scenario, untraced: string | undefined = straceUnavailable()): string | undefined {
  for (const [i, fault] of scenario.faults.entries()) {
    if (fault.kind === 'crash' && fault.mode !== 'keep-all' && untraced !== undefined) return `faults[${i}] is a machine crash (${fault.mode}), which is built from the workers' real system calls, and ${untraced}. Install strace (Debian: apt-get install strace)`;
    if (fault.kind === 'io-error') return `faults[${i}] is an I/O error (${fault.error}): a real disk cannot be made to fail on cue`;
  }
  return undefined;
}
