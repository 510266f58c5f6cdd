import { describe, expect, test } from 'vitest';
import { coordinatedJournal } from '../../src/journals/coordinated.js';
import { referenceJournal } from '../../src/journals/reference.js';
import { mentions } from './scenarioEvents.js';
import { simulate } from '../simulate.js';

const publish = (key: string) => ({ kind: 'publish' as const, key, body: `body of ${key}` });
const scenario = (keys: string[], crash: Record<string, unknown>) => ({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: keys.map(publish) }, faults: [{ kind: 'crash', process: 0, when: 'after', ...crash }] });
/** The worker line the crash came right after. */
async function crashedAfter(keys: string[], crash: Record<string, unknown>): Promise<string | undefined> {
  const { trace } = await simulate(referenceJournal, scenario(keys, crash));
  const at = trace.findIndex((e) => e.actor === 'supervisor' && e.op === 'crash');
  const before = trace.slice(0, at).filter((e) => e.actor === 'worker-0' && !e.op.endsWith(':result')).at(-1);
  return before ? `${before.op} ${before.detail}` : undefined;
}

describe('crashes anchored to what a step mentions', () => {
  test('a key or a path counts as mentioned only as a whole name', () => {
    expect(mentions('fetch POST /operations/post-b', 'post-b')).toBe(true);
    expect(mentions('fh.appendFile journal.jsonl "{\\"key\\":\\"post-b\\",\\"state…"', 'post-b')).toBe(true);
    expect(mentions('fetch POST /operations/post-bb', 'post-b')).toBe(false);
    expect(mentions('fh.writeFile notes.md.candidate-edit-notes "…"', 'notes.md')).toBe(false);
    expect(mentions('fs.rename notes.md → notes.md.aside-edit-notes', 'notes.md')).toBe(true);
  });

  test('stays on its call when another operation is removed; an absolute step does not', async () => {
    const anchored = { at: { mentions: 'post-b', occurrence: 2 } };
    expect(await crashedAfter(['post-a', 'post-b'], anchored)).toBe('fetch POST /operations/post-b');
    expect(await crashedAfter(['post-b'], anchored)).toBe('fetch POST /operations/post-b');
    const step = { step: 28 };
    expect(await crashedAfter(['post-a', 'post-b'], step)).not.toBe(await crashedAfter(['post-b'], step));
  });

  test('a scenario must say where the worker dies one way', async () => {
    await expect(simulate(referenceJournal, scenario(['post-a'], { step: 1, at: { mentions: 'post-a', occurrence: 0 } }))).rejects.toThrow(
      'Failed to load scenario: faults[0] needs exactly one of step and at. Say where the worker dies: "step": N (its N-th call), or "at": { "mentions": "post-a", "occurrence": N }.',
    );
  });
});

describe('every fault kind anchored (format 3)', () => {
  const ops = (keys: string[]) => keys.map(publish);
  const run = (journal: Parameters<typeof simulate>[0], keys: string[], faults: unknown[]) => simulate(journal, { format: 'durasim.scenario', version: 3, task: { id: 't', operations: ops(keys) }, faults });
  /** The worker lines right around the first line of `op` by `actor`. */
  const around = (trace: readonly { actor: string; op: string; detail: string }[], actor: string, op: string): [string | undefined, string | undefined] => {
    const at = trace.findIndex((e) => e.actor === actor && e.op === op);
    const worker = (e: { actor: string; op: string }) => e.actor.startsWith('worker-') && !e.op.endsWith(':result');
    const line = (e: { op: string; detail: string } | undefined) => (e ? `${e.op} ${e.detail}` : undefined);
    return [line(trace.slice(0, at).filter(worker).at(-1)), line(trace.slice(at + 1).find(worker))];
  };

  test('a cancel anchored before a POST lands right before it, and stays there when an operation before it goes; a global step does not', async () => {
    const cancel = { kind: 'cancel', at: { mentions: 'post-b', occurrence: 2 } };
    for (const keys of [['post-a', 'post-b'], ['post-b']]) {
      const { trace } = await run(referenceJournal, keys, [cancel]);
      expect(around(trace, 'user', 'cancel')[1]).toBe('fetch POST /operations/post-b');
    }
    // The global step of post-b's POST with both operations (the cancel file looked at, the cancel never landing in time).
    const late = await run(referenceJournal, ['post-a', 'post-b'], [{ kind: 'cancel', atStep: 100_000 }]);
    const atStep = late.trace.find((e) => e.op === 'fetch' && e.detail === 'POST /operations/post-b')?.globalStep as number;
    const numbered = async (keys: string[]) => around((await run(referenceJournal, keys, [{ kind: 'cancel', atStep }])).trace, 'user', 'cancel')[1];
    expect(await numbered(['post-a', 'post-b'])).toBe('fetch POST /operations/post-b');
    expect(await numbered(['post-b'])).not.toBe('fetch POST /operations/post-b');
  });

  test('after: a service restart right after the step that records post-a dispatched, before the next', async () => {
    const { trace } = await run(referenceJournal, ['post-a'], [{ kind: 'service-restart', at: { mentions: 'post-a', occurrence: 1, when: 'after' } }]);
    const [before, after] = around(trace, 'service', 'restart');
    expect(before).toMatch(/^fh\.appendFile journal\.jsonl .*\\"state\\":\\"dispatched\\"/);
    expect(after).toBe('fh.sync journal.jsonl');
  });

  test('a step kind names a step too: an input change before the second POST of the run', async () => {
    const result = await simulate(referenceJournal, { format: 'durasim.scenario', version: 3, task: { id: 't', operations: ops(['post-a', 'post-b']) }, service: { resources: { config: 'v1' } }, faults: [{ kind: 'input-change', at: { mentions: 'POST', occurrence: 1 }, resource: 'config', value: 'v2' }] });
    expect(around(result.trace, 'user', 'input-change')[1]).toBe('fetch POST /operations/post-b');
  });

  test('a pause anchored after a step freezes the worker at its next one; a store-call fault anchored to the n-th call naming a lease', async () => {
    const { trace } = await run(coordinatedJournal, ['post-a'], [
      { kind: 'pause', process: 0, at: { mentions: 't/projection', occurrence: 1, when: 'after' }, pauseMs: 500 },
      { kind: 'store-call', at: { mentions: 'store.renew', occurrence: 2 }, fault: 'timeout-before-apply' },
    ]);
    // The pause's line follows the line of the step it froze: the step right after the projection's write.
    const paused = trace.findIndex((e) => e.op === 'pause');
    const workerLines = trace.slice(0, paused).filter((e) => e.actor === 'worker-0' && !e.op.endsWith(':result')).slice(-2).map((e) => `${e.op} ${e.detail}`);
    expect(workerLines).toEqual(['store.put t/projection', 'store.renew lease t']);
    const renewals = trace.filter((e) => e.actor === 'store' && e.detail.includes(' renew lease t '));
    expect(renewals.map((e) => e.detail.includes('not applied [timeout-before-apply]'))).toEqual([false, false, true, false, false]);
  });

  test('formats 1 and 2 place these faults by number only, and a placement is said one way', async () => {
    const old = { format: 'durasim.scenario', version: 2, task: { id: 't', operations: ops(['post-a']) }, faults: [{ kind: 'cancel', at: { mentions: 'post-a', occurrence: 0 } }] };
    await expect(simulate(referenceJournal, old)).rejects.toThrow('Failed to load scenario: faults[0].at is an anchor of a fault that format 2 places by number only. Set "version": 3, or place it by number.');
    await expect(simulate(referenceJournal, { ...old, version: 3, faults: [{ kind: 'takeover', atStep: 3, at: { mentions: 'post-a', occurrence: 0 }, holdMs: 10 }] })).rejects.toThrow('Failed to load scenario: faults[0] needs exactly one of atStep and at.');
    await expect(simulate(referenceJournal, { ...old, version: 2, faults: [{ kind: 'pause', process: 0, at: { mentions: 'post-a', occurrence: 0, when: 'after' }, pauseMs: 10 }] })).rejects.toThrow('Failed to load scenario: faults[0].at.when is an anchor of a fault that format 2 places by number only.');
  });
});
