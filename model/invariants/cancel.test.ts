/** no-effect-after-cancel and cancel-truth fire on runs built to break them, and stay quiet on their correct counterparts. */
import { describe, expect, test } from 'vitest';
import type { TraceLine } from '../evidence.js';
import { checkCancelTruth } from './cancelTruth.js';
import { checkNoEffectAfterCancel } from './noEffectAfterCancel.js';
import { D1, effect, op, post, run } from './fixtures.js';

const withTask = { scenario: { task: { id: 'task-1', operations: [{ kind: 'publish' as const, key: 'a', body: 'x' }, { kind: 'publish' as const, key: 'b', body: 'y' }] } } };
/** A trace of 60 lines: the user's cancel at `cancelAt` (if any), worker-0#0's looks at the cancel file at `looks`, and its other lines as `lines` says. */
function trace(cancelAt: number | undefined, looks: number[], by = { actor: 'worker-0', incarnation: 0 }, lines: Record<number, Pick<TraceLine, 'op' | 'detail'>> = {}): TraceLine[] {
  return Array.from({ length: 60 }, (_, seq): TraceLine => {
    if (seq === cancelAt) return { seq, actor: 'user', op: 'cancel', detail: 'task-1.cancel ← the task is cancelled: cancelled by the user' };
    if (looks.includes(seq)) return { seq, ...by, op: 'fs.stat', detail: 'task-1.cancel' };
    return { seq, actor: 'worker-0', incarnation: 0, op: 'clock.now', detail: '', ...lines[seq] };
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

  test('fires when the last look came before a wait on time (a sleep, a timer it set) that the cancel landed during: the gate rule', () => {
    const slept = checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5, 15], undefined, { 18: { op: 'clock.sleep', detail: '1994ms' } }), requests: [sent(0, 'a', 10), sent(1, 'b', 25)] }));
    expect(slept.map((x) => [x.code, x.key, x.step, x.actual, x.evidence.waitAfterLook])).toEqual([
      ['no-effect-after-cancel', 'b', 25, 'worker-0#0 looked at task-1.cancel at #15, then slept 1994ms at #18 (the cancel landed meanwhile), and sent request #1 (POST b) without looking again', 18],
    ]);
    const timer = checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5, 15], undefined, { 16: { op: 'setTimeout', detail: '5000ms' }, 22: { op: 'timer', detail: 'setTimeout fired' } }), requests: [sent(0, 'a', 10), sent(1, 'b', 25)] }));
    expect(timer.map((x) => x.actual)).toEqual(['worker-0#0 looked at task-1.cancel at #15, then waited on a setTimeout it set, which fired at #22 (the cancel landed meanwhile), and sent request #1 (POST b) without looking again']);
  });

  test('the gate rule counts no wait before the look, no timer set before it (a heartbeat, a request timer), no immediate and no sleep of 0 ms', () => {
    const quiet = (lines: Record<number, Pick<TraceLine, 'op' | 'detail'>>) => checkNoEffectAfterCancel(run({ ...withTask, trace: trace(20, [5, 15], undefined, lines), requests: [sent(0, 'a', 10), sent(1, 'b', 25)] }));
    expect(quiet({ 12: { op: 'clock.sleep', detail: '1994ms' } })).toEqual([]);
    expect(quiet({ 3: { op: 'setInterval', detail: '500ms' }, 22: { op: 'timer', detail: 'setInterval fired' } })).toEqual([]);
    expect(quiet({ 16: { op: 'setImmediate', detail: '' }, 22: { op: 'timer', detail: 'setImmediate fired' } })).toEqual([]);
    expect(quiet({ 18: { op: 'clock.sleep', detail: '0ms' } })).toEqual([]);
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
