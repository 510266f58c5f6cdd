import { describe, expect, test } from 'vitest';
import type { OperationSpec, RequestEvidence, TraceLine } from '../evidence.js';
import { D1, post, run } from './fixtures.js';
import { checkVersionChangePauses } from './versionChangePauses.js';

const task = { id: 'task-1', operations: [{ kind: 'publish' as const, key: 'a', body: 'x', input: { resource: 'config', version: 'v1' } }, { kind: 'publish' as const, key: 'b', body: 'y', input: { resource: 'config', version: 'v1' } }] };
/** The source config changes to `value` at trace position `changeAt`: the fault, and where it landed. */
const changed = (changeAt: number, value = 'v2', operations: OperationSpec[] = task.operations, lines: Record<number, Pick<TraceLine, 'op' | 'detail'>> = {}): { scenario: { task: { id: string; operations: OperationSpec[] }; faults: { kind: string; atStep: number; resource: string; value: string }[] }; trace: TraceLine[] } => ({
  scenario: { task: { ...task, operations }, faults: [{ kind: 'input-change', atStep: 3, resource: 'config', value }] },
  trace: Array.from({ length: 60 }, (_, seq) => (seq === changeAt ? { seq, actor: 'user', op: 'input-change', detail: `the service's resource config ← ${JSON.stringify(value)}` } : { seq, actor: 'worker-0', incarnation: 0, op: 'clock.now', detail: '', ...lines[seq] })),
});
const read = (index: number, seq: number, sender = 'worker-0#0'): RequestEvidence => ({ index, atMs: seq, method: 'GET', route: { kind: 'resource', name: 'config' }, status: 200, seq, sender, answered: true });
const sent = (index: number, key: string, seq: number, sender = 'worker-0#0'): RequestEvidence => ({ ...post(index, key, D1, seq), sender });

describe('version-change-pauses', () => {
  test('fires when a node planned from the old version is sent with no read since the previous write, or after a read that showed the change', () => {
    const unread = checkVersionChangePauses(run({ ...changed(20), requests: [read(0, 5), sent(1, 'a', 10), sent(2, 'b', 30)] }));
    expect(unread.map((v) => [v.code, v.key, v.step, v.expected, v.actual])).toEqual([
      ['version-change-pauses', 'b', 30, 'b (planned from config "v1") not sent once config changed at #20: the task pauses for replanning', 'worker-0#0 sent request #2 without reading config since its previous write'],
    ]);
    const ignored = checkVersionChangePauses(run({ ...changed(20), requests: [read(0, 5), sent(1, 'a', 10), read(2, 25), sent(3, 'b', 30)] }));
    expect(ignored.map((v) => v.actual)).toEqual(['worker-0#0 read config at #25, after the change, and still sent request #3']);
  });

  test('fires when the last read came before a wait (a 503\'s wait) that the change landed during: the gate rule; quiet when the read follows the wait', () => {
    const waited = checkVersionChangePauses(run({ ...changed(20, 'v2', task.operations, { 17: { op: 'clock.sleep', detail: '5000ms' } }), requests: [read(0, 5), sent(1, 'a', 10), read(2, 15), sent(3, 'b', 22)] }));
    expect(waited.map((v) => [v.key, v.step, v.actual, v.evidence.waitAfterRead])).toEqual([
      ['b', 22, 'worker-0#0 read config at #15, then slept 5000ms at #17 (the change landed meanwhile), and sent request #3 without reading it again', 17],
    ]);
    expect(checkVersionChangePauses(run({ ...changed(20, 'v2', task.operations, { 13: { op: 'clock.sleep', detail: '5000ms' } }), requests: [read(0, 5), sent(1, 'a', 10), read(2, 15), sent(3, 'b', 22)] }))).toEqual([]);
  });

  test('stays quiet on the race the change cannot win, on sends before the change, on a change back to the planned version, and on nodes planned from nothing', () => {
    expect(checkVersionChangePauses(run({ ...changed(20), requests: [read(0, 5), sent(1, 'a', 10), read(2, 15), sent(3, 'b', 22)] }))).toEqual([]);
    expect(checkVersionChangePauses(run({ ...changed(50), requests: [read(0, 5), sent(1, 'a', 10), sent(2, 'b', 30)] }))).toEqual([]);
    expect(checkVersionChangePauses(run({ ...changed(20, 'v1'), requests: [read(0, 5), sent(1, 'a', 10), sent(2, 'b', 30)] }))).toEqual([]);
    expect(checkVersionChangePauses(run({ ...changed(20, 'v2', [{ kind: 'publish', key: 'a', body: 'x' }]), requests: [sent(0, 'a', 30)] }))).toEqual([]);
  });
});
