/**
 * The failure classes bind the task, not the incarnation (failure-class-respected), and a
 * retry-safe read needs no reconciling (no-state-skip): end to end, on the world's own evidence.
 * Each defect fires on a scenario built to expose it, and the reference journal passes the same one.
 */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter, LookupOperation, OperationState } from '../model/contract/contract.js';
import { judge } from '../model/judge.js';
import { journal as pauseInMemory } from '../src/journals/mutants/pauseInMemory.js';
import { journal as waitInMemory } from '../src/journals/mutants/waitInMemory.js';
import { journalFrom, ReferenceRun } from '../src/journals/reference.js';
import { referenceJournal } from '../src/journals/reference.js';
import { parseScenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';

const publish = (key: string) => ({ kind: 'publish', key, body: `artifact ${key} v1` });
const killAfter = (key: string, occurrence: number, incarnation = 0) => ({ kind: 'crash', process: 0, incarnation, at: { mentions: key, occurrence }, when: 'after', mode: 'keep-all' });
const scenario = (name: string, operations: unknown[], faults: unknown[]) =>
  parseScenario({ format: 'durasim.scenario', version: 1, name, task: { id: 'task-1', operations }, service: { resources: { config: 'v1' } }, faults });
const codes = async (journal: Parameters<typeof simulate>[0], s: ReturnType<typeof scenario>) => judge(await simulate(journal, s)).map((v) => v.code);

describe('a 503 wait and a 403 pause across a restart', () => {
  // post-a meets a 503 asking for 8 s; the worker records the unknown outcome, reconciles, and is killed while it waits.
  const wait = scenario('503, then a kill during the wait', [publish('post-a')], [{ kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'unavailable', retryAfterMs: 8000 }, killAfter('post-a', 3)]);
  // post-a meets a 403; the worker records it blocked and is killed before the fsync (a process kill keeps the page cache).
  const pause = scenario('403, then a kill', [publish('post-a'), publish('post-b')], [{ kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'permission-revoked' }, killAfter('post-a', 3)]);

  test('a wait kept only in memory is caught when the next incarnation sends early; the reference, which records it, waits', async () => {
    expect(await codes(waitInMemory, wait)).toContain('failure-class-respected');
    expect(await codes(referenceJournal, wait)).toEqual([]);
  });

  test('a pause kept only in memory is caught when the next incarnation sends the next operation; the reference stays paused', async () => {
    expect(await codes(pauseInMemory, pause)).toContain('failure-class-respected');
    expect(await codes(referenceJournal, pause)).toEqual([]);
  });

  test('a kill at the moment the 503 is heard, before anything is recorded, leaves nothing to keep: the next incarnation is not judged by it', async () => {
    // Killed right after the POST's line: the answer reached the worker, which wrote nothing after it.
    const early = scenario('503, killed on hearing it', [publish('post-a')], [{ kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'unavailable', retryAfterMs: 8000 }, killAfter('post-a', 2)]);
    const result = await simulate(waitInMemory, early);
    expect(result.requests.filter((r) => r.method === 'POST').length).toBeGreaterThan(1); // it did send again, early
    expect(judge(result).map((v) => v.code)).not.toContain('failure-class-respected');
  });
});

describe('a 403 heard by a worker killed before it wrote anything after it', () => {
  /**
   * Records in its page cache (no fsync), sends, and on a 403 records blocked and stops; a restart
   * sends what it finds dispatched again, and (`forgetsPause`) goes on to the next operation even
   * when it finds one blocked.
   */
  const unsynced = (forgetsPause: boolean): JournalAdapter => ({
    name: forgetsPause ? 'forgets-its-pause' : 'unsynced-dispatch',
    async run(env, task) {
      const log = await env.fs.readFile('log.txt', 'utf8').catch(() => '');
      if (!forgetsPause && log.includes(' blocked')) return;
      for (const op of task.operations) {
        if (op.kind !== 'publish' || log.includes(`${op.key} blocked`) || log.includes(`${op.key} succeeded`)) continue;
        if (!log.includes(`${op.key} dispatched`)) await env.fs.appendFile('log.txt', `${op.key} authorized\n${op.key} dispatched\n`);
        const response = await env.fetch(`http://service.durasim/operations/${op.key}`, { method: 'POST', body: op.body });
        await env.fs.appendFile('log.txt', `${op.key} ${response.status === 403 ? 'blocked' : 'succeeded'}\n`);
        if (response.status === 403) return;
      }
    },
    inspect(disk) {
      const records: Record<string, { kind: 'operation'; history: OperationState[] }> = {};
      for (const line of (disk.readFile('log.txt') ?? '').split('\n').filter(Boolean)) {
        const [key, state] = line.split(' ') as [string, OperationState];
        (records[key] ??= { kind: 'operation', history: [] }).history.push(state);
      }
      return records;
    },
  });
  const revoked = { kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'permission-revoked' };

  test('binds no later incarnation: it had no chance to record the pause (a false verdict before the key\'s page-cache history at hearing was kept)', async () => {
    // Killed right after the POST's step: the 403 reached it; the crash (a process kill) then shows dispatched, written before the POST.
    const result = await simulate(unsynced(false), scenario('403, killed on hearing it', [publish('post-a'), publish('post-b')], [revoked, killAfter('post-a', 1)]));
    expect(result.crashes).toHaveLength(1);
    const refused = result.requests.find((r) => r.status === 403);
    expect(refused?.heardHistory).toEqual(['authorized', 'dispatched']);
    // The next incarnation did send after the 403 (post-a again): what a pause that bound the task would forbid.
    expect(result.requests.some((r) => r.method === 'POST' && r.index > (refused?.index ?? 0) && r.sender === 'worker-0#1')).toBe(true);
    expect(judge(result).map((v) => v.code)).not.toContain('failure-class-respected');
  });

  test('a kill one step later, after it recorded blocked (kept by the process kill), binds the next incarnation: forgetting the pause is caught', async () => {
    const afterRecording = scenario('403, killed after recording it', [publish('post-a'), publish('post-b')], [revoked, killAfter('post-a', 2)]);
    const forgot = await simulate(unsynced(true), afterRecording);
    expect(judge(forgot).filter((v) => v.code === 'failure-class-respected').map((v) => v.key)).toEqual(['post-b']);
    expect(judge(await simulate(unsynced(false), afterRecording)).map((v) => v.code)).not.toContain('failure-class-respected');
  });
});

class ReadAgainAfterCrash extends ReferenceRun {
  /** After a crash a lookup is simply read again: no reconciling record first (a retry-safe read has no effect to reconcile). */
  protected override async lookup(op: LookupOperation): Promise<void> {
    const last = this.last(op.key);
    if (last?.state === 'succeeded' || last?.state === 'failed') return;
    if (last === undefined) await this.record({ key: op.key, state: 'authorized', digest: 'r' });
    await this.record({ key: op.key, state: 'dispatched', digest: 'r' });
    const verdict = await this.read(op);
    await this.record({ key: op.key, digest: 'r', ...(verdict.state === 'outcome_unknown' ? { state: 'failed', reason: verdict.reason } : verdict) });
  }
}
const readAgain = journalFrom('read-again-after-crash', (env, task) => new ReadAgainAfterCrash(env, task));

describe('a retry-safe read after a crash', () => {
  test('read again with no reconciling record is clean (the model test shows the same path firing for a write that is not retry-safe)', async () => {
    // Killed right after its GET left (its 20th env call): dispatched is recorded, the answer is lost with the process.
    const read = scenario('killed after the read left, then read again', [{ kind: 'lookup', key: 'read-config', resource: 'config' }], [{ kind: 'crash', process: 0, step: 20, when: 'after', mode: 'keep-all' }]);
    const result = await simulate(readAgain, read);
    expect(result.requests.filter((r) => r.method === 'GET' && r.route.kind === 'resource').length).toBe(2);
    expect(result.trace.filter((l) => l.op === 'fh.appendFile' && l.detail.includes('reconciling'))).toEqual([]);
    expect(judge(result)).toEqual([]);
  });
});
