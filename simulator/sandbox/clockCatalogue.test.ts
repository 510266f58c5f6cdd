/**
 * Every clock a Node 20 process can read, and what the simulated world answers for it, one row
 * each: the virtual clock (the same on every run: here one virtual second after the incarnation
 * started at 2026-01-01T00:00:00Z), or a refusal (an escape) where nothing virtual could stand in.
 * A clock not in this table that a journal reaches would read the real one: the table is the list.
 */
import * as perfHooks from 'node:perf_hooks';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../src/arbitraries.js';
import { simulate } from '../simulate.js';

type Row = [api: string, read: () => unknown, answer: unknown | 'refused'];

const CATALOGUE: Row[] = [
  ['Date.now()', () => Date.now(), 1_767_225_601_000],
  ['new Date()', () => new Date().toISOString(), '2026-01-01T00:00:01.000Z'],
  ['Date()', () => Date(), 'Thu Jan 01 2026 00:00:01 GMT+0000 (Coordinated Universal Time)'],
  ['Intl.DateTimeFormat#format()', () => new Intl.DateTimeFormat('en-US', { timeStyle: 'medium', timeZone: 'UTC' }).format(), '12:00:01 AM'],
  ['performance.now()', () => performance.now(), 1000],
  ['perf_hooks performance.now()', () => perfHooks.performance.now(), 1000],
  ['performance.timeOrigin', () => performance.timeOrigin, 1_767_225_600_000],
  ["performance.mark('a').startTime", () => performance.mark('a').startTime, 1000],
  ["performance.measure('m', { start: 250 })", () => { const m = performance.measure('m', { start: 250 }); return [m.startTime, m.duration]; }, [250, 750]],
  ['performance.getEntriesByType(\'mark\')', () => { performance.mark('b'); return performance.getEntriesByType('mark').map((e) => e.name); }, ['b']],
  ["new Event('x').timeStamp", () => new Event('x').timeStamp, 1000],
  ['an abort event\'s timeStamp', () => { const c = new AbortController(); let at = -1; c.signal.addEventListener('abort', (e) => { at = e.timeStamp; }); c.abort(); return at; }, 1000],
  ['process.hrtime()', () => process.hrtime(), [1, 0]],
  ['process.hrtime([0, 500000000])', () => process.hrtime([0, 500_000_000]), [0, 500_000_000]],
  ['process.hrtime.bigint()', () => process.hrtime.bigint(), 1_000_000_000n],
  ['process.uptime()', () => process.uptime(), 1],
  ['process.cpuUsage()', () => process.cpuUsage(), { user: 0, system: 0 }],
  ['process.resourceUsage().userCPUTime', () => process.resourceUsage().userCPUTime, 0],
  ['new Date().getTimezoneOffset()', () => new Date().getTimezoneOffset(), 0],
  ['performance.eventLoopUtilization()', () => perfHooks.performance.eventLoopUtilization(), 'refused'],
  ['performance.nodeTiming', () => perfHooks.performance.nodeTiming.duration, 'refused'],
  ['performance.toJSON()', () => performance.toJSON(), 'refused'],
  ['perf_hooks.monitorEventLoopDelay()', () => perfHooks.monitorEventLoopDelay(), 'refused'],
];

describe('the clocks of a process', () => {
  test.each(CATALOGUE)('%s', async (_api, read, answer) => {
    const seen: unknown[] = [];
    const result = await simulate(
      {
        name: 'clock-probe',
        async run(env) {
          await env.clock.sleep(1000);
          try {
            seen.push(read());
          } catch (error) {
            seen.push(`threw ${(error as Error).message}`);
          }
        },
        inspect: () => ({}),
      },
      baseScenario([]),
    );
    if (answer === 'refused') {
      expect(result.escapes).toHaveLength(1);
      expect(String(seen[0])).toMatch(/^threw Failed to run the journal under simulation: it called \S+, which reads the real clock\./);
    } else {
      expect(result.escapes).toEqual([]);
      expect(seen).toEqual([answer]);
    }
  });
});
