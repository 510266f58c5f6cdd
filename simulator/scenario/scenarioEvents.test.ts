import { describe, expect, test } from 'vitest';
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
