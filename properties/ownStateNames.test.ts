/**
 * Records in the journal's own words (issue 54, item 6): a journal whose inspect() returns its own
 * state names, with a mapping (several words to one state, a sub-state), is judged exactly as the
 * same journal in durasim's words — the same trace, the same violations at the same steps — and
 * every message names its words with the model's in brackets once.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { describeViolation } from '../model/violation.js';
import { baseScenario, scenarioArbitrary } from '../src/arbitraries.js';
import type { Fault, Scenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';
import { modelWords, ownWords } from './fixtures/ownNamesJournal.js';
import { reportMarkdown } from '../src/report/markdown.js';
import { timelineHtml } from '../src/report/timeline.js';

const onePayment = (...faults: Fault[]): Scenario => ({ ...baseScenario([{ kind: 'publish', key: 'post-a', body: 'a' }]), faults });

describe('a journal in its own words', () => {
  test('is judged as the same journal in durasim\'s words: the same trace and the same violations (code, key, step), every word of its mapping used', async () => {
    const scenarios = fc.sample(scenarioArbitrary({ operations: ['publish'], features: [] }), { numRuns: runs(150), seed: seed(54) });
    const codes = new Set<string>();
    const words = new Set<string>();
    for (const scenario of scenarios) {
      const own = await simulate(ownWords, scenario);
      const model = await simulate(modelWords, scenario);
      expect(own.inspectProblems).toEqual([]);
      expect(own.traceHash).toBe(model.traceHash);
      const found = judge(own).map((v) => `${v.code} [${v.key}] at #${v.step}`);
      expect(found).toEqual(judge(model).map((v) => `${v.code} [${v.key}] at #${v.step}`));
      for (const v of judge(own)) codes.add(v.code);
      for (const record of Object.values(own.final.visible)) for (const name of record.names ?? []) for (const word of name.split('/')) words.add(word);
    }
    // The comparison is about something: many invariants broken, and every word (sub-state and several-to-one among them) reached.
    expect(codes.size).toBeGreaterThanOrEqual(6);
    expect([...words].sort()).toEqual(Object.keys(ownWords.states ?? {}).sort());
  }, PROPERTY_TIMEOUT_MS);

  test('its messages name its words, the model\'s in brackets once, word for word', async () => {
    // A 500 after the commit: timeout, a retry wait (a sub-state of outcome_unknown), then a send without checking.
    const skip = onePayment({ kind: 'response', request: 0, fault: '500-after-commit' });
    const own = judge(await simulate(ownWords, skip)).map(describeViolation);
    expect(own).toEqual(['no-state-skip [post-a] at #33: expected a transition the model allows from timeout/retry_wait [outcome_unknown] (to checking [reconciling]; docs/invariants.md draws the model); actual timeout/retry_wait → sending [dispatched]']);
    expect(judge(await simulate(modelWords, skip)).map(describeViolation)).toEqual(['no-state-skip [post-a] at #33: expected a transition the model allows from outcome_unknown (to reconciling; docs/invariants.md draws the model); actual outcome_unknown → dispatched']);
    // A crash in the retry wait: the next incarnation sends without asking (retry-safe-only), the model's blocked named by the journal's parked.
    const crash = onePayment({ kind: 'response', request: 0, fault: '500-after-commit' }, { kind: 'crash', process: 0, incarnation: 0, step: 25, when: 'after', mode: 'keep-all' });
    expect(judge(await simulate(ownWords, crash)).map(describeViolation)).toEqual([
      'no-state-skip [post-a] at #36: expected a transition the model allows from timeout/retry_wait [outcome_unknown] (to checking [reconciling]; docs/invariants.md draws the model); actual timeout/retry_wait → sending [dispatched]',
      'retry-safe-only [post-a] at #40: expected after crash 1 left post-a timeout/retry_wait [outcome_unknown], a query for the key before any re-send, or parked [blocked]; actual request #1 from worker-0#1, which started after that crash, re-sent it without asking the service; this service kept the key, but one that forgets keys (or keeps none) would have committed it twice had the first send landed',
    ]);
  }, PROPERTY_TIMEOUT_MS);

  test('its report.md and timeline.html name its words too: the violations, and what the disk kept at a crash', async () => {
    const scenario = onePayment({ kind: 'response', request: 0, fault: '500-after-commit' }, { kind: 'crash', process: 0, incarnation: 0, step: 25, when: 'after', mode: 'keep-all' });
    const result = await simulate(ownWords, scenario);
    const violations = judge(result);
    const markdown = reportMarkdown({ command: 'replay', journal: ownWords.name, journalSpec: 'payments.ts', runsExecuted: 1, elapsedMs: 1, verdict: 'safety', exitCode: 1, violations, result, counterexample: scenario });
    expect(markdown).toContain('  - then: no-state-skip [post-a] at #36: expected a transition the model allows from timeout/retry_wait [outcome_unknown] (to checking [reconciling]; docs/invariants.md draws the model); actual timeout/retry_wait → sending [dispatched]');
    const html = timelineHtml(result, violations, 'payments');
    expect(html).toContain('<h4>Disk kept (durable records)</h4><ul><li>post-a: queued [authorized] → sending [dispatched] → timeout/retry_wait [outcome_unknown]</li></ul>');
    expect(html).toContain('actual timeout/retry_wait → sending [dispatched]');
  }, PROPERTY_TIMEOUT_MS);

  test('simulate() in your own code refuses a mapping onto a state the model lacks, as every command does', async () => {
    await expect(simulate({ ...ownWords, states: { ...ownWords.states, paid: 'settled' } as never }, onePayment())).rejects.toThrow(
      'Failed to load the journal: the states of the journal "payments-own-words" map "paid" to "settled", which is not a state of the model (operation: authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled; file: read, conflict, applied).',
    );
  });
});
