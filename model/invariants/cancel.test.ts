/** no-effect-after-cancel and cancel-truth fire on runs built to break them, and stay quiet on their correct counterparts. */
import { describe, expect, test } from 'vitest';
import type { TraceLine } from '../evidence.js';
import { checkCancelTruth } from './cancelTruth.js';
import { checkNoEffectAfterCancel } from './noEffectAfterCancel.js';
import { D1, effect, op, post, run } from './fixtures.js';

const withTask = { scenario: { task: { id: 'task-1', operations: [{ kind: 'publish' as const, key: 'a', body: 'x' }, { kind: 'publish' as const, key: 'b', body: 'y' }] } } };
/** A trace of 60 lines: the user's cancel at `cancelAt` (if any), and worker-0#0's looks at the cancel file at `looks`. */
function trace(cancelAt: number | undefined, looks: number[], by = { actor: 'worker-0', incarnation: 0 }): TraceLine[] {
  return Array.from({ length: 60 }, (_, seq): TraceLine => {
    if (seq === cancelAt) return { seq, actor: 'user', op: 'cancel', detail: 'task-1.cancel ← the task is cancelled: cancelled by the user' };
    if (looks.includes(seq)) return { seq, ...by, op: 'fs.stat', detail: 'task-1.cancel' };
    return { seq, actor: 'worker-0', incarnation: 0, op: 'clock.now', detail: '' };
  });
}
const sent = (index: number, key: string, seq: number, sender = 'worker-0#0') => ({ ...post(index, key, D1, seq), sender });

describe('no-effect-after-cancel', () => {
  test('fires when a POST after the cancel had no look since the previous POST (checked only at the start)', () => {
    const v = checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5]), requests: [sent(0, 'a', 10), sent(1, 'b', 30)] }));
    expect(v.map((x) => [x.code, x.key, x.step, x.expected, x.actual])).toEqual([
      ['no-effect-after-cancel', 'b', 30, 'no new write after the task was cancelled at #20 (task-1.cancel)', 'worker-0#0 sent request #1 (POST b) without looking at task-1.cancel since its previous write'],
    ]);
  });

  test('fires when the sender looked after the cancel landed and sent anyway; and for a later incarnation that never looked', () => {
    const saw = checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5, 25]), requests: [sent(0, 'a', 10), sent(1, 'b', 30)] }));
    expect(saw.map((x) => x.actual)).toEqual(['worker-0#0 looked at task-1.cancel at #25, after the cancel, and still sent request #1 (POST b)']);
    const later = checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5]), requests: [sent(0, 'a', 10), sent(1, 'b', 40, 'worker-0#1')] }));
    expect(later.map((x) => x.actual)).toEqual(['worker-0#1 sent request #1 (POST b) without looking at task-1.cancel since it started']);
  });

  test('stays quiet on the race the cancel cannot win (a look after the previous POST, before the cancel), on POSTs before it, and with no cancel', () => {
    expect(checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5, 15]), requests: [sent(0, 'a', 10), sent(1, 'b', 22)] }))).toEqual([]);
    expect(checkNoEffectAfterCancel(run({ ...withTask, trace: trace(50, [5]), requests: [sent(0, 'a', 10), sent(1, 'b', 30)] }))).toEqual([]);
    expect(checkNoEffectAfterCancel(run({ ...withTask, trace: trace(undefined, []), requests: [sent(0, 'a', 10), sent(1, 'b', 30)] }))).toEqual([]);
  });
});

describe('cancel-truth', () => {
  test('fires when an operation the service committed is recorded cancelled', () => {
    const v = checkCancelTruth(run({ ...withTask, effects: [effect('a', D1, 'rcpt-a-1', 12)], final: { durable: { a: op(['authorized', 'dispatched', 'cancelled']) }, visible: { a: op(['authorized', 'dispatched', 'cancelled']) }, files: {} } }));
    expect(v.map((x) => [x.code, x.key, x.expected, x.actual])).toEqual([
      ['cancel-truth', 'a', 'a recorded as what happened: the service committed it (receipt rcpt-a-1)', 'it is recorded cancelled on the durable image at the end, as if it never happened'],
    ]);
  });

  test('stays quiet on a cancelled operation the service never committed (an effect under its key from before the run, even of the same intent, is not its own), and on a committed one recorded succeeded', () => {
    const final = { durable: { a: op(['authorized', 'cancelled']), b: op(['authorized', 'dispatched', 'succeeded']) }, visible: { a: op(['authorized', 'cancelled']), b: op(['authorized', 'dispatched', 'succeeded']) }, files: {} };
    expect(checkCancelTruth(run({ ...withTask, effects: [effect('b', D1, 'rcpt-b-1', 12), effect('a', D1, 'rcpt-a-0', 0, null)], final }))).toEqual([]);
  });
});
