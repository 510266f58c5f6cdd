/**
 * A scenario's faults are anchored on what a step names (a key, a path, a resource: at { mentions, occurrence }), and a
 * real worker places them by the steps it counts itself (stepCounter.ts), so a step must name the same of the task's
 * names in both worlds: where it did not, a crash landed elsewhere for real than simulated (a link onto notes.md named
 * by its source alone, 2026-12-07). Held here for journals on Node's own API, on the task with every feature, fault-free:
 * the names each worker step mentions, simulated and real, step against step (in sorted order: real timers may reorder two).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { presetContract } from '../../simulator/contract/presets.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { featuredScenario } from '../arbitraries.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { taskNames } from '../runner/anchorFaults.js';
import { runForReal } from './realRun.js';

const pool = new WorkerPool({ workers: 1 });
afterAll(() => pool.close());

const named = (trace: readonly Pick<TraceEntry, 'actor' | 'step' | 'op' | 'detail' | 'incarnation'>[], names: readonly string[]): string[] =>
  trace
    .filter((e) => e.actor.startsWith('worker-') && e.step !== undefined && !e.op.endsWith(':result'))
    .map((e) => ({ e, mentioned: names.filter((name) => stepMentions(e.op, e.detail, name)) }))
    // The steps an anchor can count, those naming one of the task's names (a step naming one in one world only still shows,
    // missing from the other): on a busy machine real time changes the rest (a clock.sleep fewer, CI of 45c3d1d).
    .filter(({ mentioned }) => mentioned.length > 0)
    .map(({ e, mentioned }) => `${e.actor}#${e.incarnation ?? 0} ${e.op}: ${mentioned.join(', ')}`)
    // Sorted: a journal on real timers (node-persist's) may take two steps in another order on a busy machine; what each kind of step names is what must match.
    .sort();

describe('what a step names is the same in real processes as simulated', () => {
  test.each([
    // On env (served by the real worker under the simulator's names, countedWorld.ts env).
    ['reference'],
    ['examples/node-journal/journal.ts'],
    ['properties/fixtures/nodeFileApiJournal.ts'],
    // The libraries' journals (examples/libraries): their calls as the libraries make them (callbacks, sync calls, renames).
    ...['atomically', 'configstore', 'fs-extra', 'jsonfile', 'lowdb', 'node-persist', 'proper-lockfile', 'write-file-atomic', 'node-idempotency'].map((library) => [`examples/libraries/${library}/journal.ts`]),
  ])('%s: every worker step names the same of the task\'s names (keys, paths, resources) in both worlds', async (file) => {
    const ref = journalRefOf(file === 'reference' ? file : fileURLToPath(new URL(`../../${file}`, import.meta.url)));
    const scenario = featuredScenario();
    const names = taskNames(scenario);
    const loaded = await pool.load(ref);
    const simulated = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    expect(simulated.kind).toBe('simulated');
    const real = await runForReal(ref, scenario, { traced: false });
    const simulatedSteps = named(simulated.kind === 'simulated' ? (simulated.result?.trace ?? []) : [], names);
    expect(simulatedSteps.length).toBeGreaterThan(2);
    expect(named(real.input.trace, names)).toEqual(simulatedSteps);
  });

  test("under a contract whose key travels in a header, a request's fetch step names its key in both worlds (a crash anchored after it struck a later step for real)", async () => {
    const dir = new URL('../../examples/contracts/payments/', import.meta.url);
    const scenario = parseScenario(JSON.parse(readFileSync(new URL('task.json', dir), 'utf8')));
    scenario.service.contract = { ...presetContract('payments')!, url: 'https://api.payouts.example' };
    const ref = journalRefOf(fileURLToPath(new URL('journal.ts', dir)));
    const names = taskNames(scenario);
    const loaded = await pool.load(ref);
    const simulated = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    const simulatedSteps = named(simulated.kind === 'simulated' ? (simulated.result?.trace ?? []) : [], names);
    // The header's key is named by the simulated fetch: the case this holds.
    expect(simulatedSteps.filter((line) => line.includes(' fetch: '))).not.toEqual([]);
    const real = await runForReal(ref, scenario, { traced: false });
    expect(named(real.input.trace, names)).toEqual(simulatedSteps);
  });
});
