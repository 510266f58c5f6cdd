/**
 * The task shape (durasim.config.json, --operations, --features, --task): generated runs hold only
 * the operation kinds a journal supports, only the features it has, and vary the user's own task
 * when one is given; and a small journal that refuses anything else is clean under a config that
 * says so, where the default shape fails it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { scenarioArbitrary, TASK_FEATURES, type TaskFeature } from '../src/arbitraries.js';
import { main } from '../src/cli/main.js';
import { EVENT_ANCHOR_VERSION, parseScenarioText, scenarioToJson, type Scenario } from '../simulator/scenario/scenario.js';
import { runs, seed } from './budgets.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-shape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Which features a scenario carries. */
function featuresOf(s: Scenario): TaskFeature[] {
  const has: Record<TaskFeature, boolean> = {
    token: s.task.accessToken !== undefined,
    budget: s.task.retryBudget !== undefined,
    cancel: s.faults.some((f) => f.kind === 'cancel'),
    input: s.faults.some((f) => f.kind === 'input-change') || s.task.operations.some((op) => op.kind === 'publish' && op.input !== undefined),
    temp: s.task.temp !== undefined,
  };
  return TASK_FEATURES.filter((f) => has[f]);
}

describe('the task shape', () => {
  test('the default shape draws every operation kind and every feature; a narrowed one only those it names', () => {
    const all = fc.sample(scenarioArbitrary({}), { numRuns: runs(400), seed: seed(5) });
    expect(new Set(all.flatMap((s) => s.task.operations.map((op) => op.kind)))).toEqual(new Set(['publish', 'lookup', 'edit']));
    expect(new Set(all.flatMap(featuresOf))).toEqual(new Set(TASK_FEATURES));
    const narrow = fc.sample(scenarioArbitrary({ operations: ['publish', 'edit'], features: ['token'] }), { numRuns: runs(400), seed: seed(5) });
    expect(new Set(narrow.flatMap((s) => s.task.operations.map((op) => op.kind)))).toEqual(new Set(['publish', 'edit']));
    expect(new Set(narrow.flatMap(featuresOf))).toEqual(new Set(['token']));
    const bare = fc.sample(scenarioArbitrary({ operations: ['lookup'], features: [] }), { numRuns: runs(300), seed: seed(5) });
    expect(bare.every((s) => s.task.operations.every((op) => op.kind === 'lookup') && featuresOf(s).length === 0)).toBe(true);
  });

  test("a user's task is varied: its operations (a subset, in its order), its files, service and environment, faults drawn on it", () => {
    const mine = parseScenarioText(JSON.stringify({
      format: 'durasim.scenario', version: 1,
      task: { id: 'invoice-7', operations: [{ kind: 'publish', key: 'send-invoice', body: 'invoice 7, 120 EUR' }, { kind: 'edit', key: 'mark-sent', path: 'ledger.md', append: '- invoice 7 sent\n' }, { kind: 'publish', key: 'notify', body: 'invoice 7 sent' }] },
      files: { 'ledger.md': '# Ledger\n' },
      environment: { REGION: 'eu' },
    }));
    const drawn = fc.sample(scenarioArbitrary({ task: mine }), { numRuns: runs(300), seed: seed(6) });
    const keys = ['send-invoice', 'mark-sent', 'notify'];
    for (const s of drawn) {
      expect(s.task.id).toBe('invoice-7');
      const order = s.task.operations.map((op) => keys.indexOf(op.key));
      expect(order.every((i, n) => i >= 0 && (n === 0 || i > (order[n - 1] as number)))).toBe(true);
      expect(s.files['ledger.md']).toBe('# Ledger\n');
      expect(s.environment).toEqual({ REGION: 'eu' });
    }
    expect(drawn.some((s) => s.faults.some((f) => f.kind === 'user-edit' && f.path === 'ledger.md'))).toBe(true);
    expect(drawn.some((s) => s.faults.some((f) => f.kind === 'response' && 'at' in f && f.at?.mentions === 'notify'))).toBe(true);
  });

  test("a task of every format draws runs its format holds: saved and read back, each keeps the task's version", () => {
    // Format 1 and 2 place a timed fault, a store call and a pause's `when` by number only: a --task file of version 1
    // made every drawn run that anchored one fail to load in the pool (exit 5, durasim's own failure, caused by the input).
    const task = (version: number): Scenario => parseScenarioText(JSON.stringify({
      format: 'durasim.scenario', version,
      task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }, { kind: 'edit', key: 'edit-notes', path: 'notes.md', append: '- agent line\n' }, { kind: 'lookup', key: 'read-config', resource: 'config' }] },
      files: { 'notes.md': '# Notes\n' },
      service: { resources: { config: 'v1' } },
    }));
    const eventAnchored = (s: Scenario): boolean => s.faults.some((f) => (f.kind !== 'crash' && f.kind !== 'io-error' && f.kind !== 'response' && f.kind !== 'pause' && 'at' in f && f.at !== undefined) || (f.kind === 'pause' && f.at?.when !== undefined));
    for (const version of [1, 2, 3]) {
      const drawn = fc.sample(scenarioArbitrary({ task: task(version) }), { numRuns: runs(300), seed: seed(8) });
      for (const s of drawn) {
        expect(s.version).toBe(version);
        expect(() => parseScenarioText(JSON.stringify(scenarioToJson(s)))).not.toThrow();
      }
      // Format 3 anchors them (the draws are there to hold back), the older formats number them.
      expect(drawn.some(eventAnchored)).toBe(version >= EVENT_ANCHOR_VERSION);
      expect(drawn.some((s) => s.faults.some((f) => 'atStep' in f && f.atStep !== undefined && f.kind !== 'user-edit'))).toBe(true);
    }
  });

  test('check --task with a format-1 task runs its draws as format 1 allows (exit 0, not 5)', async () => {
    const file = join(dir, 'task-v1.json');
    writeFileSync(file, JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }, { kind: 'edit', key: 'edit-notes', path: 'notes.md', append: '- agent line\n' }] }, files: { 'notes.md': '# Notes\n' } }));
    const out: string[] = [];
    const code = await main(['check', '--no-sweep', '--no-real-restart', '--task', file, '--runs', '60', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'v1'), '--regressions', join(dir, 'v1-regressions')], (line) => out.push(line));
    expect(out.join('\n')).not.toContain('durasim itself failed');
    expect(code).toBe(0);
  });

  test('a finding of a narrowed shape is shrunk within it: check --operations lookup never saves a publish', async () => {
    // A journal that cannot recover fails a lookup's run and a publish's alike; at seed 1 the shrink once took the
    // simplifier's "a lone operation → the workload's first" and saved a publish of post-a.
    const journal = resolve(import.meta.dirname, 'fixtures', 'restartFailsJournal.ts');
    const report = join(dir, 'lookups');
    const code = await main(['check', '--no-sweep', '--journal', journal, '--operations', 'lookup', '--features', 'none', '--runs', '200', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', report, '--regressions', join(dir, 'lookup-regressions')], () => undefined);
    expect(code).toBe(3);
    const scenario = parseScenarioText(readFileSync(join(report, 'counterexample.json'), 'utf8'));
    expect(scenario.task.operations.map((op) => op.kind)).toEqual(['lookup']);
  });

  test('a small journal is clean under a config that says its shape, where the default shape fails it', async () => {
    const journal = resolve(import.meta.dirname, 'fixtures', 'publishOnlyJournal.ts');
    const common = ['--no-real-restart', '--runs', '20', '--seed', '3', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')];
    const out: string[] = [];
    expect(await main(['check', '--no-sweep', '--journal', journal, ...common], (line) => out.push(line))).toBe(3);
    expect(out.join('\n')).toMatch(/journal-error|this journal (does publishes only|knows no task feature)/);
    const config = join(dir, 'durasim.config.json');
    writeFileSync(config, JSON.stringify({ operations: ['publish'], features: [] }));
    const shaped: string[] = [];
    expect(await main(['check', '--no-sweep', '--journal', journal, '--config', config, ...common], (line) => shaped.push(line))).toBe(0);
    expect(shaped[0]).toContain(' · operations publish · features none · config ');
    // The counterexample the default shape saved is outside this shape: not replayed, and said so.
    expect(shaped).toContain('1 stored regression outside the task shape (operations publish · features none · config ' + config + ') not replayed');
    // A flag overrides the config: every feature back, and the journal fails again.
    expect(await main(['check', '--no-sweep', '--journal', journal, '--config', config, '--features', 'token,budget,cancel,input,temp', ...common], () => undefined)).toBe(3);
    // explore's default base is narrowed to the shape too, and its window faults keep to it (no cancel without the feature).
    const explore = ['explore', '--no-real-restart', '--journal', journal, '--max-runs', '40', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'explore'), '--regressions', join(dir, 'explored')];
    expect(await main(explore, () => undefined)).not.toBe(0);
    const explored: string[] = [];
    expect(await main([...explore, '--config', config], (line) => explored.push(line))).toBe(0);
    expect(explored[0]).toContain('base the standard workload in the task shape, no faults');
  });
});
