/**
 * The served APIs that are no step (NOT_STEPS): constants of the simulated machine and process,
 * and finalization registries.
 * A real process of `durasim confirm` counts none of them (src/confirm/countedWorld.ts), so the list
 * is held here to what the simulation does: each of them called, and not one step taken.
 */
import * as os from 'node:os';
import * as tty from 'node:tty';
import { expect, test } from 'vitest';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { simulate } from '../../simulate.js';
import { NOT_STEPS } from './serveCall.js';

test('every served API that is no step takes none when a journal calls it', async () => {
  const calls: [string, () => unknown][] = [
    ...Object.keys(os).filter((name) => NOT_STEPS.has(`os.${name}`)).map((name): [string, () => unknown] => [`os.${name}`, () => (os as unknown as Record<string, () => unknown>)[name]?.()]),
    ['performance.timeOrigin', () => performance.timeOrigin],
    ['process.cpuUsage', () => process.cpuUsage()],
    ['process.resourceUsage', () => process.resourceUsage()],
    ['performance.getEntries', () => performance.getEntries()],
    ['performance.getEntriesByName', () => performance.getEntriesByName('x')],
    ['performance.getEntriesByType', () => performance.getEntriesByType('mark')],
    ['tty.isatty', () => tty.isatty(1)],
    ['FinalizationRegistry', () => new FinalizationRegistry(() => {})],
  ];
  expect(new Set(calls.map(([api]) => api))).toEqual(NOT_STEPS);
  const journal: JournalAdapter = {
    name: 'asks-the-machine',
    async run(env) {
      for (const [, call] of calls) call();
      await env.fs.readdir('.');
    },
    inspect: () => ({}),
  };
  const result = await simulate(journal, baseScenario([]));
  expect(result.escapes).toEqual([]);
  expect(result.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined).map((e) => e.op)).toEqual(['fs.readdir']);
});
