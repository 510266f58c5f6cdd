/**
 * A finished simulation leaves nothing that a young collection must keep. V8 takes as live every
 * pointer from the old generation, and some objects live there from birth: an accessor pair
 * (Object.defineProperty with get), a WeakMap's table (whose values a young collection keeps
 * whatever becomes of their keys). A root of that kind that reaches a world keeps the whole world
 * through every young collection until a full one: promoted, marked, swept, about ten scenarios'
 * worth at a time (docs/benchmark.md, "What outlives a scenario").
 *
 * Measured as the heap's growth across two forced young collections after each batch of
 * scenarios, with a ballast of ~1 MB hung on every process's env (the world reaches it): a kept
 * world shows as the ballast, far above the ~20 KB a scenario's memfs volume leaves. The control
 * keeps its envs in a WeakMap of its own and must show the ballast.
 */
import { describe, expect, test } from 'vitest';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Env, JournalAdapter } from '../model/contract/contract.js';
import { baseScenario } from '../src/arbitraries.js';
import { referenceJournal } from '../src/journals/reference.js';
import { simulate } from './simulate.js';
import type { Fault, Scenario } from './scenario/scenario.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** What the ballast takes on the heap, measured: ~1 MB. */
const BALLAST_BYTES = 1_000_000;
const hang = (env: Env): void => {
  (env as unknown as { ballast?: unknown }).ballast = Array.from({ length: 20_000 }, (_, i) => ({ i, more: i + 1 }));
};

function scenario(faults: Fault[] = []): Scenario {
  return { ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]), faults };
}

/** Median heap growth per scenario over batches of `batch` runs, each batch followed by two young collections. */
async function keptPerScenario(journal: JournalAdapter, input: Scenario, batches = 12, batch = 5): Promise<number> {
  for (let i = 0; i < 20; i++) await simulate(journal, input);
  gc();
  gc();
  const growth: number[] = [];
  let before = getHeapStatistics().used_heap_size;
  for (let b = 0; b < batches; b++) {
    for (let i = 0; i < batch; i++) await simulate(journal, input);
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    const now = getHeapStatistics().used_heap_size;
    growth.push((now - before) / batch);
    before = now;
  }
  growth.sort((a, b) => a - b);
  const median = growth[Math.floor(growth.length / 2)] as number;
  if (process.env.DURASIM_SHOW_KEPT) console.error(journal.name, Math.round(median));
  return median;
}

describe('young collections', () => {
  test('the control: envs kept in an old WeakMap keep their ballast (the measure sees a kept world)', async () => {
    const kept = new WeakMap<Env, { env: Env }>();
    const control: JournalAdapter = { name: 'control', inspect: () => ({}), run: async (env) => (hang(env), void kept.set(env, { env })) };
    expect(await keptPerScenario(control, scenario())).toBeGreaterThan(BALLAST_BYTES * 0.8);
  });

  test("a finished simulation's result does not keep its world (its hash getters hold only the trace and the payload)", async () => {
    const quiet: JournalAdapter = { name: 'quiet', inspect: () => ({}), run: async (env) => hang(env) };
    expect(await keptPerScenario(quiet, scenario())).toBeLessThan(BALLAST_BYTES * 0.2);
  });

  test('a journal that logs does not keep its world (the console its process sees lives on the process)', async () => {
    const chatty: JournalAdapter = { name: 'chatty', inspect: () => ({}), run: async (env) => (hang(env), console.log('hello')) };
    expect(await keptPerScenario(chatty, scenario())).toBeLessThan(BALLAST_BYTES * 0.2);
  });

  test("the reference journal's crashed call does not keep its world (its calls under way live on the env)", async () => {
    const ballasted: JournalAdapter = { ...referenceJournal, run: async (env, task) => (hang(env), referenceJournal.run(env, task)) };
    const crash = scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 2, when: 'after', mode: 'keep-all' }]);
    const once = await simulate(ballasted, crash);
    expect(once.crashes).toHaveLength(1);
    expect(await keptPerScenario(ballasted, crash)).toBeLessThan(BALLAST_BYTES * 0.2);
  });
});
