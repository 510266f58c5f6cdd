/**
 * The served APIs that are no step (NOT_STEPS): constants of the simulated machine and process.
 * A real process of `durasim confirm` counts none of them (src/confirm/countedWorld.ts), so the list
 * is held here to what the simulation does: each of them called, and not one step taken.
 */
import * as os from 'node:os';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { simulate } from '../../simulate.js';
import { NOT_STEPS } from './serveCall.js';

/** node:worker_threads as a bundled journal requires it (an ES import's bindings are copies, taken outside any turn). */
const threads = createRequire(import.meta.url)('node:worker_threads') as Record<string, unknown>;

test('every served API that is no step takes none when a journal calls it', async () => {
  const calls: [string, () => unknown][] = [
    ...Object.keys(os).filter((name) => NOT_STEPS.has(`os.${name}`)).map((name): [string, () => unknown] => [`os.${name}`, () => (os as unknown as Record<string, () => unknown>)[name]?.()]),
    ['performance.timeOrigin', () => performance.timeOrigin],
    ['process.cpuUsage', () => process.cpuUsage()],
    ['process.resourceUsage', () => process.resourceUsage()],
    ['performance.getEntries', () => performance.getEntries()],
    ['performance.getEntriesByName', () => performance.getEntriesByName('x')],
    ['performance.getEntriesByType', () => performance.getEntriesByType('mark')],
    ...['getuid', 'geteuid', 'getgid', 'getegid', 'getgroups', 'umask'].map((name): [string, () => unknown] => [`process.${name}`, () => (process as unknown as Record<string, () => unknown>)[name]?.()]),
    ...['argv', 'execPath', 'execArgv'].map((name): [string, () => unknown] => [`process.${name}`, () => (process as unknown as Record<string, unknown>)[name]]),
    ...['isMainThread', 'threadId', 'parentPort', 'workerData', 'resourceLimits'].map((name): [string, () => unknown] => [`worker_threads.${name}`, () => threads[name]]),
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
