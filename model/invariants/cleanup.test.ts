import { describe, expect, test } from 'vitest';
import { checkCleanupOwnedOnly } from './cleanupOwnedOnly.js';
import { checkConvergence } from './convergence.js';
import { checkEvidenceRetained } from './evidenceRetained.js';
import { crash, finalRecords, observedRun, op, run } from './fixtures.js';

const SUCCEEDED = ['authorized', 'dispatched', 'succeeded'];
const temp = (patch: Partial<NonNullable<Parameters<typeof run>[0]>['temp']> = {}): NonNullable<Parameters<typeof run>[0]>['temp'] => ({ dir: 'tmp', foreign: ['tmp/task-10.a.part', 'tmp/task-2.index'], touches: [], leftovers: [], ...patch });

describe('cleanup-owned-only', () => {
  test("fires once per other task's file touched, at the first step that touched it", () => {
    const violations = checkCleanupOwnedOnly(run({
      temp: temp({
        touches: [
          { seq: 40, by: 'worker-0#0', op: 'unlinked it', name: 'tmp/task-10.a.part' },
          { seq: 41, by: 'worker-0#1', op: 'opened it for writing', name: 'tmp/task-10.a.part' },
          { seq: 52, by: 'worker-1#0', op: 'renamed it away', name: 'tmp/task-2.index' },
        ],
      }),
    }));
    expect(violations.map((v) => [v.code, v.key, v.step, v.actual])).toEqual([
      ['cleanup-owned-only', 'tmp/task-10.a.part', 40, 'worker-0#0 unlinked it'],
      ['cleanup-owned-only', 'tmp/task-2.index', 52, 'worker-1#0 renamed it away'],
    ]);
    expect(violations[0]?.expected).toBe("another task's temp file left alone (it was in tmp before the run; a cleanup deletes only what its own task registered)");
  });

  test('stays quiet when nothing of another task was touched, and when the task keeps no temp files', () => {
    expect(checkCleanupOwnedOnly(run({ temp: temp({ leftovers: ['tmp/task-1.a.0-0.part'] }) }))).toEqual([]);
    expect(checkCleanupOwnedOnly(run())).toEqual([]);
  });
});

describe('evidence-retained', () => {
  test('fires when the record of a succeeded write is deleted from the durable image', () => {
    // After crash 1 the durable image holds a succeeded with its receipt; at the end the log is gone.
    const input = observedRun({ crashes: [crash(30, { a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) })], final: finalRecords({}) });
    expect(checkEvidenceRetained(input)).toEqual([expect.objectContaining({ code: 'evidence-retained', key: 'a', step: 99, actual: 'recorded succeeded at #30; the record was gone from the durable image at #99' })]);
  });

  test('fires when a later image keeps the record but not its receipt (a compaction that drops receipts)', () => {
    const input = run({ crashes: [crash(30, { a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) })], final: finalRecords({ a: op(['succeeded'], { reported: 'state' }) }) });
    expect(checkEvidenceRetained(input)).toEqual([expect.objectContaining({ code: 'evidence-retained', key: 'a', step: 99, expected: 'the receipt rcpt-a-1 kept (the durable records held it at #30)', actual: 'the durable records hold its record without a receipt at #99' })]);
    const changed = run({ crashes: [crash(30, { a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) })], final: finalRecords({ a: op(SUCCEEDED, { receipt: 'rcpt-a-2' }) }) });
    expect(checkEvidenceRetained(changed)[0]?.actual).toBe('the durable records show the receipt rcpt-a-2 at #99');
    // Watched at every snapshot (observedHistory.ts): a receipt dropped and never seen at a crash is still caught.
    const watched = run({ final: finalRecords({ a: op(['succeeded'], { reported: 'state' }) }), receiptLosses: [{ key: 'a', receipt: 'rcpt-a-1', heldSeq: 40, seq: 61, image: 'visible', now: null }] });
    expect(checkEvidenceRetained(watched)).toEqual([expect.objectContaining({ step: 61, actual: 'the records processes see hold its record without a receipt at #61' })]);
    expect(checkEvidenceRetained(run({ final: finalRecords({ a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) }), receiptLosses: [] }))).toEqual([]);
  });

  test('holds while the receipt stays, for records deleted before they succeeded, and for lookups', () => {
    expect(checkEvidenceRetained(observedRun({ crashes: [crash(30, { a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) })], final: finalRecords({ a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) }) }))).toEqual([]);
    // A record that never reached succeeded and vanished is no-state-skip's to judge, not this one's.
    expect(checkEvidenceRetained(observedRun({ crashes: [crash(30, { a: op(['authorized', 'dispatched']) })], final: finalRecords({}) }))).toEqual([]);
    const lookup = [{ kind: 'lookup' as const, key: 'a', resource: 'config' }];
    expect(checkEvidenceRetained(observedRun({ operations: lookup, crashes: [crash(30, { a: op(SUCCEEDED, { receipt: 'v1' }) })], final: finalRecords({}) }))).toEqual([]);
  });
});

describe('convergence: temp files of a finished task', () => {
  const leftovers = temp({ leftovers: ['tmp/task-1.a.0-0.part', 'tmp/task-1.a.0-1.part'] });

  test('fires when a finished task left temp files behind, naming them all', () => {
    const violations = checkConvergence(run({ temp: leftovers, final: finalRecords({ a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'convergence', key: '', actual: '2 left in tmp: tmp/task-1.a.0-0.part, tmp/task-1.a.0-1.part' })]);
    expect(checkConvergence(run({ temp: leftovers, final: finalRecords({ a: op(['authorized', 'cancelled']) }) }))).toHaveLength(1);
  });

  test('holds for a task not finished (blocked, in doubt: its temp files may still be needed) and for one that left nothing', () => {
    const blocked = finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'blocked']) });
    expect(checkConvergence(run({ temp: leftovers, service: { query: false }, final: blocked }))).toEqual([]);
    expect(checkConvergence(run({ temp: temp(), final: finalRecords({ a: op(SUCCEEDED, { receipt: 'rcpt-a-1' }) }) }))).toEqual([]);
  });
});
