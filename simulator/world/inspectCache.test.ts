/**
 * inspect()'s answers kept across runs by what the files it read hold (inspectCache.ts): a second
 * run of the same journal over the same images gets the answers without running inspect() again,
 * with the same records and the same trace; an inspect() that made a call the sandbox serves (a
 * clock read) is run every time, as is one under another environment.
 */
import { expect, test } from 'vitest';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { baseScenario } from '../../src/arbitraries.js';
import { simulate } from '../simulate.js';

/** A journal writing three versions of one file durably; its inspect() counted, reading the clock when `clock`. */
function counted(clock: boolean): { fresh: () => JournalAdapter; calls: { n: number } } {
  const calls = { n: 0 };
  const fresh = (): JournalAdapter => ({
    name: clock ? 'inspect-reads-clock' : 'inspect-pure',
    async run(env) {
      for (const state of ['authorized', 'dispatched', 'succeeded']) {
        const file = await env.fs.open('state.json', 'w');
        await file.writeFile(JSON.stringify({ state }));
        await file.sync();
        await file.close();
      }
    },
    inspect(disk) {
      calls.n++;
      if (clock) void Date.now();
      const text = disk.readFile('state.json');
      if (text === undefined) return {};
      return { 'post-a': { kind: 'operation', history: [(JSON.parse(text) as { state: string }).state] } } as ReturnType<JournalAdapter['inspect']>;
    },
  });
  return { fresh, calls };
}

test('a second run over the same images runs inspect() no more, with the same records and trace; a clock read keeps it running', async () => {
  const pure = counted(false);
  const first = await simulate(pure.fresh(), baseScenario(), { fresh: pure.fresh });
  const afterFirst = pure.calls.n;
  const second = await simulate(pure.fresh(), baseScenario(), { fresh: pure.fresh });
  // The durable images are known: only the visible image at the end is read again.
  expect(afterFirst).toBeGreaterThanOrEqual(2);
  expect(pure.calls.n - afterFirst).toBe(1);
  expect(second.final).toEqual(first.final);
  expect(second.traceHash).toBe(first.traceHash);

  const reading = counted(true);
  await simulate(reading.fresh(), baseScenario(), { fresh: reading.fresh });
  const once = reading.calls.n;
  await simulate(reading.fresh(), baseScenario(), { fresh: reading.fresh });
  expect(reading.calls.n - once).toBe(once);

  // Another environment: inspect() could read it, so the answers kept under the first are not given.
  const before = pure.calls.n;
  await simulate(pure.fresh(), { ...baseScenario(), environment: { MODE: 'other' } }, { fresh: pure.fresh });
  expect(pure.calls.n - before).toBe(afterFirst);
});
