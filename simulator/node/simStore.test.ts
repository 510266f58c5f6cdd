import { describe, expect, test } from 'vitest';
import type { JournalAdapter, JournalRecords, StoreView } from '../../model/contract/contract.js';
import { parseScenario, parseScenarioText, type Scenario } from '../scenario/scenario.js';
import { simulate } from '../simulate.js';

const scenario = (extra: Record<string, unknown> = {}): Scenario =>
  parseScenario({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'a' }] }, ...extra });

/** Keeps its operation's state in the store: a lease, then compare-and-set on task-1/post-a. */
const storeJournal: JournalAdapter & { seen: string[] } = {
  name: 'store-journal',
  seen: [],
  async run(env, task) {
    const lease = await env.store.lease.acquire(task.id, { holder: `worker-${env.pid}`, ttlMs: 1_000 });
    if (!lease.ok) return;
    const key = `${task.id}/post-a`;
    const before = await env.clock.now();
    const first = await env.store.put(key, 'authorized', { ifAbsent: true });
    const after = await env.clock.now();
    this.seen.push(`put ${JSON.stringify(first)} in ${after - before} ms`);
    try {
      const second = await env.store.put(key, 'succeeded', first.ok ? { ifVersion: first.version } : {});
      this.seen.push(`second ${JSON.stringify(second)}`);
    } catch (error) {
      this.seen.push(`second threw ${(error as Error).name} at +${(await env.clock.now()) - after} ms`);
    }
  },
  inspect(_disk, store?: StoreView): JournalRecords {
    const entry = store?.get('task-1/post-a');
    return entry ? { 'post-a': { kind: 'operation', state: entry.value === 'succeeded' ? 'succeeded' : 'authorized' } } : {};
  },
};

describe('env.store under simulation', () => {
  test('every call is a step, answered store.latencyMs later; the store has its own lane in the trace and inspect() reads it', async () => {
    storeJournal.seen = [];
    const result = await simulate(storeJournal, scenario({ store: { latencyMs: 7 } }));
    expect(storeJournal.seen).toEqual(['put {"ok":true,"version":1} in 7 ms', 'second {"ok":true,"version":2}']);
    const store = result.trace.filter((e) => e.actor === 'store').map((e) => e.detail);
    expect(store).toEqual([
      expect.stringMatching(/^#0 worker-0#0 acquire lease task-1 for worker-0 \(1000ms\) → ok token 1 until \d+$/),
      '#1 worker-0#0 put task-1/post-a if absent → ok v1',
      '#2 worker-0#0 put task-1/post-a if v1 → ok v2',
    ]);
    expect(result.observed['post-a']).toBeDefined();
    expect(result.final.durable['post-a']?.history.at(-1)).toBe('succeeded');
  });

  test('a timeout fault: the caller gets a StoreTimeoutError after store.timeoutMs, whether or not the store applied the call', async () => {
    for (const fault of ['timeout-after-apply', 'timeout-before-apply'] as const) {
      storeJournal.seen = [];
      const result = await simulate(storeJournal, scenario({ store: { timeoutMs: 250 }, faults: [{ kind: 'store-call', call: 2, fault }] }));
      expect(storeJournal.seen[1]).toBe('second threw StoreTimeoutError at +250 ms');
      expect(result.final.durable['post-a']?.history.at(-1)).toBe(fault === 'timeout-after-apply' ? 'succeeded' : 'authorized');
    }
  });

  test('the same scenario gives the same trace; a store restart with volatile memory forgets the lease', async () => {
    const s = scenario({ store: { memory: 'volatile' }, faults: [{ kind: 'store-restart', atStep: 3 }] });
    const [a, b] = [await simulate(storeJournal, s), await simulate(storeJournal, s)];
    expect(a.traceHash).toBe(b.traceHash);
    expect(a.trace.some((e) => e.actor === 'store' && e.op === 'restart' && e.detail.includes('every key and lease is gone'))).toBe(true);
  });

  test('a store-edit writes (or deletes) a key unconditionally as the user, before its global step, in the ground truth', async () => {
    storeJournal.seen = [];
    const edited = await simulate(storeJournal, scenario({ faults: [{ kind: 'store-edit', atStep: 3, key: 'task-1/post-a', value: 'edited' }] }));
    const edit = edited.store?.calls.find((c) => c.by === 'user');
    expect(edit).toMatchObject({ request: { op: 'put', key: 'task-1/post-a', value: 'edited' }, applied: true });
    expect(edited.trace.find((e) => e.actor === 'user')?.detail).toBe(`#${edit?.index} user put task-1/post-a → ok v${edit?.answer.version}`);
    // The journal wrote first; its second write was on the version it had: the edit moved it, so it is refused.
    expect(storeJournal.seen[0]).toMatch(/^put \{"ok":true/);
    expect(storeJournal.seen[1]).toMatch(/^second \{"ok":false,"reason":"conflict"/);
    const deleted = await simulate(storeJournal, scenario({ faults: [{ kind: 'store-edit', atStep: 2, key: 'task-1/post-a', value: null }] }));
    expect(deleted.store?.calls.find((c) => c.by === 'user')?.request).toEqual({ op: 'delete', key: 'task-1/post-a' });
    expect(() => scenario({ faults: [{ kind: 'store-edit', atStep: 2, key: 'task-1/post-a' }] })).toThrow(/faults\[0\]/);
  });

  test('a stale-read fault needs a store that allows stale reads', () => {
    expect(() => parseScenarioText(JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] }, faults: [{ kind: 'store-call', call: 0, fault: 'stale-read' }] }))).toThrow(
      'Failed to load scenario: faults[0].fault is stale-read, but the store is linearizable. Set "store": { "consistency": "stale-reads" } to allow stale reads.',
    );
  });
});

describe('a pause', () => {
  test('freezes the worker with its step granted but not yet taken effect; the step lands pauseMs later', async () => {
    storeJournal.seen = [];
    const result = await simulate(storeJournal, scenario({ faults: [{ kind: 'pause', process: 0, incarnation: 0, step: 1, pauseMs: 20_000 }] }));
    const pause = result.trace.find((e) => e.op === 'pause');
    expect(pause?.detail).toBe('worker-0#0 freezes for 20000 ms');
    const put = result.trace.find((e) => e.actor === 'store' && e.op === 'put');
    expect(put?.timeMs).toBeGreaterThanOrEqual(20_000);
    expect(result.store.calls[1]?.storeTimeMs).toBe(result.store.calls[0]!.storeTimeMs + 20_000 + 1);
    const again = await simulate(storeJournal, scenario({ faults: [{ kind: 'pause', process: 0, incarnation: 0, step: 1, pauseMs: 20_000 }] }));
    expect(again.traceHash).toBe(result.traceHash);
  });
});
