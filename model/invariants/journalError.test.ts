import { describe, expect, test } from 'vitest';
import type { TraceLine } from '../evidence.js';
import { checkJournalError } from './journalError.js';
import { run } from './fixtures.js';

const line = (seq: number, actor: string, op: string, detail: string): TraceLine => ({ seq, actor, op, detail });
const steps = (from: number, to: number): TraceLine[] => Array.from({ length: to - from }, (_, i) => line(from + i, 'worker-0', 'clock.now', ''));

describe('journal-error', () => {
  test('fires when an incarnation ends by its own error before any fault happened', () => {
    const trace = [...steps(0, 3), line(3, 'supervisor', 'exit', 'worker-0#0 failed: TypeError: Cannot read properties of undefined'), ...steps(4, 6)];
    expect(checkJournalError(run({ trace }))).toEqual([
      { code: 'journal-error', key: '', step: 3, expected: 'no incarnation ends by an error of its own before any fault was injected', actual: 'worker-0#0 ended with TypeError: Cannot read properties of undefined before any fault happened in the run', evidence: { incarnation: 'worker-0#0', error: 'TypeError: Cannot read properties of undefined' } },
    ]);
    // An unhandled rejection and a non-zero exit are the journal's own errors too.
    expect(checkJournalError(run({ trace: [line(0, 'supervisor', 'exit', 'worker-0#0 failed: unhandled: Error: boom')] }))).toHaveLength(1);
    expect(checkJournalError(run({ trace: [line(0, 'supervisor', 'exit', 'worker-0#0 failed: Error: process.exit(2)')] }))).toHaveLength(1);
  });

  test('holds when a fault came first (crash-only recovery is legitimate), for clean exits, and for a refusal of the sandbox', () => {
    const failed = line(5, 'supervisor', 'exit', 'worker-0#0 failed: Error: EIO: i/o error, write');
    for (const fault of [
      line(2, 'disk', 'io-error', 'write to /work/journal.jsonl failed'),
      line(2, 'service', 'receive', '#0 POST /operations/a → 500 [error-before-commit]'),
      line(2, 'service', 'receive', '#0 POST /operations/a → 201 (response dropped)'),
      line(2, 'store', 'list', '#1 worker-0#0 list t/events/* → 0 keys [timeout-after-apply]'),
      line(2, 'supervisor', 'duplicate-delivery', 'the task is delivered again to worker-1'),
      line(2, 'supervisor', 'crash', 'worker-0#0 after step 1 (keep-all: process kill)'),
      line(2, 'user', 'edit', 'notes.md ← "x"'),
      line(2, 'operator', 'takeover', 'the operator takes task t over for 2000 ms'),
    ]) expect(checkJournalError(run({ trace: [...steps(0, 2), fault, ...steps(3, 5), failed] })), fault.op).toEqual([]);
    expect(checkJournalError(run({ trace: [...steps(0, 3), line(3, 'supervisor', 'exit', 'worker-0#0 finished')] }))).toEqual([]);
    expect(checkJournalError(run({ trace: [line(0, 'supervisor', 'exit', 'worker-0#0 failed: DurasimError: Failed to run the journal under simulation: it called os.setPriority, which reads the real machine')] }))).toEqual([]);
  });
});
