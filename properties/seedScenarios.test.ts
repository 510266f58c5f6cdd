/**
 * The design notes' experiments, replayed as named scenarios (reports/seeds/), each with the
 * outcome its note expects — and judged clean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { describeViolation } from '../model/violation.js';
import { leaseTenures } from '../model/invariants/leases.js';
import { coordinatedJournal } from '../src/journals/coordinated.js';
import { referenceJournal } from '../src/journals/reference.js';
import { parseScenarioText } from '../simulator/scenario/scenario.js';
import { simulate, type SimulationResult } from '../simulator/simulate.js';

const DIR = new URL('../reports/seeds/', import.meta.url);

interface Expectation {
  /** Final recorded history per key. */
  histories: Record<string, string>;
  /** Effects committed during the run. */
  effects: number;
  /** POSTs the service received. */
  posts: number;
  /** The worker op the crash landed on, when there is one. */
  crashAt?: string;
  files?: Record<string, string>;
  preserved?: string[];
  /** The invariants a scenario built to break the journal's premise must see fire (default: none). */
  violations?: string[];
  /** The task ends quarantined (<task id>/quarantine in the store). */
  quarantined?: boolean;
  /** A task with temp files: how many unlinks of them the workers made, and how many found the file already gone. */
  tempUnlinks?: { total: number; alreadyGone: number };
}

const both = { 'prepare-target': 'authorized,dispatched,succeeded', 'copy-batch': 'authorized,dispatched,succeeded' };
const unknownThenReconciled: Expectation = { histories: { probe: 'authorized,dispatched,outcome_unknown,reconciling,succeeded' }, effects: 1, posts: 1 };

const EXPECTED: Record<string, Expectation> = {
  '000-timeout-branch': { histories: { timeout: 'authorized,dispatched,outcome_unknown,reconciling,succeeded' }, effects: 1, posts: 1 },
  '000-killed-branch': { histories: { killed: 'authorized,dispatched,reconciling,succeeded' }, effects: 1, posts: 1, crashAt: 'fetch' },
  '000-same-key-other-body': { histories: { normal: 'authorized,dispatched,conflict' }, effects: 0, posts: 1 },
  '000-recovery-changed-intent': { histories: { normal: 'authorized,dispatched,reconciling,dispatched,conflict' }, effects: 0, posts: 1, crashAt: 'clock.timeout' },
  '000-user-edit-during-delivery': {
    histories: { deliver: 'read,conflict,read,applied' },
    effects: 0,
    posts: 0,
    files: { 'article.txt': 'user edit\nagent addition\n' },
    preserved: ['user edit\n'],
  },
  '000-crash-after-intent-before-send': { histories: { intent: 'authorized,dispatched,reconciling,dispatched,succeeded' }, effects: 1, posts: 1, crashAt: 'fetch' },
  '000-receipt-409': { histories: { probe: 'authorized,dispatched,conflict' }, effects: 0, posts: 1 },
  '000-receipt-valid': { histories: { probe: 'authorized,dispatched,succeeded' }, effects: 1, posts: 1 },
  ...Object.fromEntries(
    ['500', '202', 'malformed', 'null', 'wrong-key', 'wrong-digest', 'empty-receipt', 'pending', 'body-cut'].map((c) => [`000-receipt-${c}`, unknownThenReconciled]),
  ),
  '004-unsafe-write-found-started': { histories: { 'write-result': 'authorized,dispatched,reconciling,blocked' }, effects: 0, posts: 0, crashAt: 'fetch' },
  '002-kill-before-registration': { histories: { migrate: 'authorized,dispatched,succeeded' }, effects: 1, posts: 1, crashAt: 'fh.appendFile' },
  '002-kill-after-external-commit': { histories: { migrate: 'authorized,dispatched,reconciling,succeeded' }, effects: 1, posts: 1, crashAt: 'fetch' },
  '002-kill-before-receipt-saved': { histories: { migrate: 'authorized,dispatched,reconciling,succeeded' }, effects: 1, posts: 1, crashAt: 'fh.appendFile' },
  '002-kill-after-state-advanced': { histories: { migrate: 'authorized,dispatched,succeeded' }, effects: 1, posts: 1, crashAt: 'fh.sync' },
  // Seed 002's failure classes and retry budget, for the reference journal.
  '002-budget-exhausted-across-restarts': { histories: { 'prepare-target': 'authorized,dispatched,outcome_unknown,reconciling,dispatched,reconciling,blocked' }, effects: 1, posts: 2, crashAt: 'fetch' },
  '002-cancel-during-delayed-call': { histories: { 'prepare-target': 'authorized,dispatched,succeeded' }, effects: 1, posts: 1 },
  '002-cancel-mid-delivery': { histories: { 'edit-notes': 'read' }, effects: 0, posts: 0, crashAt: 'fs.rename', files: { 'notes.md': '# Notes\n' } },
  '002-input-changed-during-pause': { histories: { 'prepare-target': 'authorized,dispatched,succeeded', 'copy-batch': 'authorized,blocked' }, effects: 1, posts: 1 },
  '002-failure-classes': { histories: { 'prepare-target': 'authorized,dispatched,failed', 'copy-batch': 'authorized,dispatched,outcome_unknown,reconciling,dispatched,succeeded', 'switch-reference': 'authorized,dispatched,outcome_unknown,reconciling,succeeded' }, effects: 2, posts: 4 },
  // Seed 002's cleanup: repeated after a kill and by a duplicate delivery; a machine crash losing a deletion.
  '002-cleanup-repeated': { histories: both, effects: 2, posts: 2, crashAt: 'fs.unlink', tempUnlinks: { total: 3, alreadyGone: 1 } },
  '002-cleanup-crash-mid-deletion': { histories: both, effects: 2, posts: 2, crashAt: 'fs.unlink', tempUnlinks: { total: 3, alreadyGone: 0 } },
  '002-permission-revoked-pauses': { histories: { 'prepare-target': 'authorized,dispatched,succeeded', 'copy-batch': 'authorized,dispatched,blocked' }, effects: 1, posts: 2, crashAt: 'fh.appendFile' },
  // Seed 002's matrix for the coordinated journal (a lease, events taken by compare-and-set in the
  // store, fencing tokens): every kill point of every node, duplicate delivery, two workers at once,
  // the store's clock skewed either way, a holder paused past its lease, operators taking over.
  '002-coord-duplicate-delivery': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
  '002-coord-n1-kill-after-external-commit': { histories: {'prepare-target': 'authorized,dispatched,reconciling,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'fetch' },
  '002-coord-n1-kill-after-state-advanced': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-n1-kill-before-receipt-saved': { histories: {'prepare-target': 'authorized,dispatched,reconciling,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-n1-kill-before-registration': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-n2-kill-after-external-commit': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,reconciling,succeeded'}, effects: 2, posts: 2, crashAt: 'fetch' },
  '002-coord-n2-kill-after-state-advanced': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-n2-kill-before-receipt-saved': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,reconciling,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-n2-kill-before-registration': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2, crashAt: 'store.put' },
  '002-coord-paused-former-holder': { histories: {'prepare-target': 'authorized,dispatched,reconciling,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 3 },
  '002-coord-store-clock-ahead': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
  '002-coord-store-clock-behind': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
  '002-coord-two-concurrent-workers': { histories: {'prepare-target': 'authorized,dispatched,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
  '002-coord-operator-takeover': { histories: {'prepare-target': 'authorized,dispatched,reconciling,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
  '002-coord-access-token-never-persisted': { histories: { 'prepare-target': 'authorized,dispatched,reconciling,succeeded', 'copy-batch': 'authorized,dispatched,succeeded' }, effects: 2, posts: 2, crashAt: 'fetch' },
  '002-coord-renewal-at-expiry': { histories: both, effects: 2, posts: 2 },
  '002-coord-duplicated-queue-message': { histories: both, effects: 2, posts: 2 },
  '002-coord-projection-lie-quarantined': { histories: { 'prepare-target': 'authorized,dispatched,succeeded', 'copy-batch': 'authorized' }, effects: 1, posts: 1, quarantined: true },
  '002-coord-volatile-store-restart': { histories: both, effects: 2, posts: 3, violations: ['completed-replayed', 'evidence-retained', 'no-state-skip', 'single-advancer'] },
  '002-coord-two-operators-competing': { histories: {'prepare-target': 'authorized,dispatched,reconciling,succeeded','copy-batch': 'authorized,dispatched,succeeded'}, effects: 2, posts: 2 },
};

const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

function crashedOn(result: SimulationResult): string | undefined {
  const crash = result.crashes[0];
  if (!crash) return undefined;
  const step = [...result.trace].reverse().find((e) => e.seq < crash.seq && e.step !== undefined && !e.op.endsWith(':result'));
  return step?.op;
}

describe('the seeds’ experiments', () => {
  test('every seed scenario has an expectation, and every expectation a scenario', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  test.each(files)('%s ends as its note expects, judged as it expects', async (name) => {
    const scenario = parseScenarioText(readFileSync(new URL(`${name}.json`, DIR), 'utf8'));
    const expected = EXPECTED[name] as Expectation;
    const coordinated = name.startsWith('002-coord-');
    const result = await simulate(coordinated ? coordinatedJournal : referenceJournal, scenario);
    if (coordinated) {
      // One lease holder at a time: no two tenures of the task's lease overlap on the store's clock.
      const tenures = leaseTenures(result);
      for (let i = 1; i < tenures.length; i++) {
        const [before, after] = [tenures[i - 1], tenures[i]];
        const ended = (before?.endSeq !== undefined && (after?.fromSeq ?? 0) >= before.endSeq) || (after?.fromMs ?? 0) >= (before?.untilMs ?? 0);
        expect(ended, `tenure ${i} (${after?.holder}) began while tenure ${i - 1} (${before?.holder}) still held`).toBe(true);
      }
      expect(tenures.length).toBeGreaterThan(0);
      if (name === '002-coord-paused-former-holder') expect(result.requests.filter((r) => r.status === 412).map((r) => r.fencingToken)).toEqual([1]);
    }
    const violations = judge(result);
    if (expected.violations) expect([...new Set(violations.map((v) => v.code))].sort()).toEqual(expected.violations);
    else expect(violations.map(describeViolation)).toEqual([]);
    if (scenario.task.accessToken) {
      // The token went out as the credential of every request, and landed nowhere.
      expect(result.requests.filter((r) => r.unauthorized)).toEqual([]);
      expect(result.secretSightings).toEqual([]);
    }
    if (scenario.task.temp) {
      // Other tasks' temp files untouched; none of this task's left; every unlink accounted for.
      expect(result.temp).toEqual(expect.objectContaining({ touches: [], leftovers: [] }));
      const unlinks = result.trace.flatMap((e, i) => (e.op === 'fs.unlink' && e.detail.startsWith(`${scenario.task.temp?.dir}/`) ? [result.trace[i + 1]?.op === 'fs.unlink:result' ? result.trace[i + 1]?.detail : 'ok'] : []));
      expect({ total: unlinks.length, alreadyGone: unlinks.filter((r) => r === 'ENOENT').length }).toEqual(expected.tempUnlinks);
    } else expect(expected.tempUnlinks).toBeUndefined();
    const quarantine = result.store?.calls.some((c) => c.applied && c.request.op === 'put' && c.request.key === 'task-1/quarantine') ?? false;
    expect(quarantine).toBe(expected.quarantined ?? false);
    const histories = Object.fromEntries(Object.entries(result.final.visible).map(([key, r]) => [key, r.history.join(',')]));
    expect(histories).toEqual(expected.histories);
    expect(result.effects.filter((e) => e.requestIndex !== null)).toHaveLength(expected.effects);
    expect(result.requests.filter((r) => r.method === 'POST')).toHaveLength(expected.posts);
    expect(crashedOn(result)).toBe(expected.crashAt);
    if (expected.files) expect(result.final.files).toEqual(expected.files);
    if (expected.preserved) {
      const preserved = Object.values(result.final.visible).flatMap((r) => (r.kind === 'file' ? r.preserved : []));
      expect(preserved).toEqual(expected.preserved);
    }
  });
});
