import type { JudgeInput, TraceLine } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * journal-error: an incarnation ends by an error of the journal's own (an uncaught exception or
 * rejection, a non-zero process.exit) before any injected fault happened in the run — a bug, not a
 * recovery: crash-only recovery after a fault (an EIO, a 500, a lost lease, a second worker) is
 * legitimate and not judged here. A refusal of the sandbox is not judged here either (it is an
 * escape). Liveness: the journal did not get on with its work, as one that blocks its thread.
 */
const FAULT_MARK = / \[[a-z-]+\]|\(response dropped\)|\(connection reset\)/;

/** Whether the trace line is an injected fault taking effect (or a scenario event that changes the world). */
export function isFaultEvent(line: TraceLine): boolean {
  switch (line.actor) {
    case 'user':
    case 'operator':
      return true;
    case 'disk':
      return line.op === 'io-error' || line.op === 'crash';
    case 'supervisor':
      return line.op === 'crash' || line.op === 'pause' || line.op === 'duplicate-delivery' || line.op === 'concurrent-call';
    case 'service':
    case 'store':
      return line.op === 'restart' || FAULT_MARK.test(line.detail);
    default:
      return false;
  }
}

const REFUSED = 'DurasimError: Failed to run the journal under simulation';

export function checkJournalError(input: JudgeInput): Violation[] {
  for (const line of input.trace) {
    if (isFaultEvent(line)) return [];
    if (line.actor !== 'supervisor' || line.op !== 'exit') continue;
    const failed = / failed: (.*)$/s.exec(line.detail);
    if (!failed || (failed[1] as string).startsWith(REFUSED)) continue;
    const who = line.detail.slice(0, line.detail.indexOf(' failed: '));
    return [
      {
        code: 'journal-error',
        key: '',
        step: line.seq,
        expected: 'no incarnation ends by an error of its own before any fault was injected',
        actual: `${who} ended with ${failed[1]} before any fault happened in the run`,
        evidence: { incarnation: who, error: failed[1] },
      },
    ];
  }
  return [];
}
