/**
 * Concurrency inside one process (issue 29 part 3): a concurrent-call hands the task to a running
 * process a second time, as a second call of run() sharing its module memory and env. A journal
 * whose in-memory claim is checked before an await and made after it lets both calls send — caught
 * here by the concurrent family, never by a duplicate delivery to another process (which its file
 * lock holds off); the bundled journals, one call of a task at a time per process, stay clean.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter } from '../model/contract/contract.js';
import { judge } from '../model/judge.js';
import { baseScenario } from '../src/arbitraries.js';
import { main } from '../src/cli/main.js';
import { recordsFromLog } from '../src/journals/jsonlLog.js';
import { ReferenceRun, referenceJournal } from '../src/journals/reference.js';
import { coordinatedJournal } from '../src/journals/coordinated.js';
import { parseScenario, parseScenarioText, type Fault, type Scenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';

const CLAIMS = join(resolve(import.meta.dirname, '..'), 'properties/fixtures/claimsAfterAReadJournal.ts');
const publishes = (faults: Fault[]): Scenario => ({ ...baseScenario([{ kind: 'publish', key: 'post-a', body: 'a' }, { kind: 'publish', key: 'post-b', body: 'b' }]), faults });

/** A check of the concurrent-call family (without a clean verdict's real restarts: their base task has no concurrent call). */
async function check(journal: string, faults: string, seed: number, runs = 300): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'durasim-concurrent-'));
  const out: string[] = [];
  const code = await main(['check', '--no-sweep', '--journal', journal, '--faults', faults, '--safety-only', '--runs', String(runs), '--seed', String(seed), '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart'], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('a second call of run() in the running process', () => {
  test('shares the module memory and the env; the process ends when both returned', async () => {
    const calls: { n: number; env: Env }[] = [];
    let n = 0;
    const journal: JournalAdapter = {
      name: 'counts-calls',
      run: async (env) => {
        calls.push({ n: ++n, env });
        await env.clock.sleep(10);
        await env.fs.appendFile('calls.log', `${n}\n`);
      },
      inspect: () => ({}),
    };
    const result = await simulate(journal, { ...publishes([{ kind: 'concurrent-call', atStep: 1, process: 0 }]) });
    expect(calls.map((c) => c.n)).toEqual([1, 2]);
    expect(calls[1]?.env).toBe(calls[0]?.env);
    const lines = result.trace.map((e) => `${e.actor} ${e.op}`);
    // The two calls' steps interleave in the order they ask: both sleep, then both append.
    expect(lines.filter((l) => l.startsWith('worker-0 '))).toEqual(['worker-0 clock.sleep', 'worker-0 clock.sleep', 'worker-0 fs.appendFile', 'worker-0 fs.appendFile']);
    // The process ends once, after the second call's last step.
    expect(lines.filter((l) => l === 'supervisor exit')).toHaveLength(1);
    expect(lines.lastIndexOf('worker-0 fs.appendFile')).toBeLessThan(lines.indexOf('supervisor exit'));
    expect(result.trace.find((e) => e.op === 'concurrent-call')?.detail).toBe('the task reaches worker-0#0 again: a second call of run() in the same process, its module memory shared');
  });

  test('a crash ends both calls; a worker that is no longer running gets nothing', async () => {
    let started = 0;
    const journal: JournalAdapter = {
      name: 'two-steps',
      run: async (env) => {
        started++;
        await env.fs.appendFile('a.log', 'x\n');
        await env.fs.appendFile('a.log', 'y\n');
      },
      inspect: () => ({}),
    };
    const crashed = await simulate(journal, publishes([{ kind: 'concurrent-call', atStep: 1, process: 0 }, { kind: 'crash', process: 0, incarnation: 0, step: 1, when: 'after', mode: 'keep-all' }]));
    // Two calls started in incarnation 0, one in incarnation 1: nothing of the second call ran after the crash.
    expect(started).toBe(3);
    expect(crashed.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0 && e.step !== undefined).map((e) => e.step)).toEqual([0, 1]);
    const late = await simulate(journal, publishes([{ kind: 'concurrent-call', atStep: 500, process: 0 }]));
    expect(late.trace.find((e) => e.op === 'concurrent-call')?.detail).toBe('the task reaches worker-0 again, but it is not running: nothing happens');
    expect(late.outcome).toEqual({ kind: 'completed' });
  });

  test("the second call's error is that request's answer: recorded, and the process goes on", async () => {
    let calls = 0;
    const journal: JournalAdapter = {
      name: 'refuses-a-second-call',
      run: async (env) => {
        if (++calls === 2) throw new Error('a request is outstanding for this key');
        await env.clock.sleep(10);
        await env.fs.appendFile('done.log', 'first\n');
      },
      inspect: () => ({}),
    };
    const result = await simulate(journal, publishes([{ kind: 'concurrent-call', atStep: 1, process: 0 }]));
    expect(result.trace.find((e) => e.op === 'call-failed')?.detail).toBe("worker-0#0's second call of run() failed: Error: a request is outstanding for this key; the process goes on");
    expect(result.trace.some((e) => e.op === 'fs.appendFile')).toBe(true);
    expect(result.trace.filter((e) => e.op === 'start')).toHaveLength(1);
    expect(result.outcome).toEqual({ kind: 'completed' });
  });

  test('its code runs before the clock moves (format 3): a call that awaits once before its first served call reads the time it arrived at', async () => {
    // The first call waits on a timer; the second awaits once, then reads the clock. Time moves only when every call waits.
    let calls = 0;
    const firstRead: number[] = [];
    const journal: JournalAdapter = {
      name: 'late-concurrent-call',
      inspect: () => ({}),
      async run() {
        const n = ++calls;
        await Promise.resolve();
        firstRead[n - 1] = Date.now() - Date.UTC(2026, 0, 1); // served: the virtual clock
        if (n === 1) {
          await sleep(1000); // node:timers/promises, served: the virtual clock
          await sleep(4000);
        }
      },
    };
    const at = (version: number) => ({ ...publishes([{ kind: 'concurrent-call', atStep: 0, process: 0 }]), version });
    await simulate(journal, at(3));
    expect(firstRead).toEqual([0, 0]);
    // Format 2 replays as it ran: the second call's code waited for the first call's timer, 1 s later.
    calls = 0;
    await simulate(journal, at(2));
    expect(firstRead).toEqual([0, 1000]);
  });

  test('is validated like every fault: its process must exist; process 0 by default', () => {
    const base = { format: 'durasim.scenario', version: 2, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] } };
    expect(parseScenario({ ...base, faults: [{ kind: 'concurrent-call', atStep: 3 }] }).faults).toEqual([{ kind: 'concurrent-call', atStep: 3, process: 0 }]);
    expect(() => parseScenario({ ...base, faults: [{ kind: 'concurrent-call', atStep: 3, process: 1 }] })).toThrow('Failed to load scenario: faults[0].process is 1, but the scenario has 1 worker(s). Crash worker 0, or add a duplicate-delivery fault that starts another worker.');
  });
});

describe('an in-memory claim made after an await', () => {
  test.each([1, 2])('seed %i: a duplicate delivery to another process never shows it (150 runs); a concurrent call does', async (seed) => {
    const duplicate = await check(CLAIMS, 'duplicate', seed, 150);
    expect(duplicate.code, duplicate.out).toBe(0);
    const concurrent = await check(CLAIMS, 'concurrent', seed);
    expect(concurrent.code, concurrent.out).toBe(1);
    expect(concurrent.out).toMatch(/single-flight \[post-[abc]\]|one-effect-per-key \[post-[abc]\]|no-state-skip \[post-[abc]\]/);
  });
});

describe('the bundled journals take one call of a task at a time per process', () => {
  test.each(['reference', 'coordinated'])('%s: clean over 200 runs with every family, concurrent calls among them (the sweep: 100,000 each)', async (journal) => {
    const { code, out } = await check(journal, 'crash,disk,io,response,duplicate,user,service-restart,intent,store,failure,concurrent', 11, 200);
    expect(code, out).toBe(0);
  });

  test('the coordinated journal: a second call after the first quarantined the task advances nothing (found by the 100,000-run sweep)', async () => {
    const scenario = parseScenarioText(readFileSync(join(resolve(import.meta.dirname, '..'), 'properties/fixtures/quarantineThenSecondCall.scenario.json'), 'utf8'));
    const result = await simulate(coordinatedJournal, scenario);
    expect(judge(result)).toEqual([]);
    expect(result.trace.filter((e) => e.actor === 'store' && e.detail.includes('put task-1/quarantine')).length).toBe(1);
    expect(result.trace.filter((e) => e.actor === 'store' && e.detail.includes('put task-1/events/')).length).toBe(0);
  });

  test('without that guard the reference protocol is caught: the second call takes the lock its own pid holds', async () => {
    const unguarded: JournalAdapter = { name: 'reference-unguarded', run: (env, task) => new ReferenceRun(env, task).execute(), inspect: (disk) => recordsFromLog(disk) };
    const scenario = publishes([{ kind: 'concurrent-call', atStep: 12, process: 0 }]);
    expect(judge(await simulate(unguarded, scenario)).length).toBeGreaterThan(0);
    expect(judge(await simulate(referenceJournal, scenario))).toEqual([]);
  });
});
