/**
 * The evidence a worker sends is what the judge reads: judged in the main thread from it, after a
 * structured clone as a message makes, a run gets the very violations the judge gives on the
 * result itself. Over generated runs of mutants that fail in many ways.
 */
import { expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { mutantNamed } from '../journals/mutants/index.js';
import { generatedScenario } from '../runner/scenarioSource.js';
import { evidenceOf, judgedSummary } from './runEvidence.js';

test.each(['no-fsync', 'resend-instead-of-query', 'blind-overwrite', 'unsynced-delivery', 'torn-tail-fatal', 'retry-unsafe-write'])('%s: the verdict from the sent evidence is the judge\'s on the result', async (name) => {
  const mutant = mutantNamed(name);
  if (!mutant) throw new Error(`no mutant ${name}`);
  let found = 0;
  for (let index = 0; index < 40; index++) {
    const scenario = generatedScenario({ seed: 11, index, arbitrary: {}, ordinal: index, determinismEvery: 1000, independenceEvery: 1000 }).value_;
    const result = await simulate(mutant.journal, scenario);
    const violations = judge(result);
    found += violations.length;
    const sent = structuredClone({ outcome: result.outcome, escapes: [], stats: result.stats, journalErrors: [], crashStates: [], evidence: evidenceOf(result) });
    // Equal as a report writes them: the same fields, in the same order.
    expect(JSON.stringify(judgedSummary(sent).violations)).toBe(JSON.stringify(violations));
  }
  expect(found).toBeGreaterThan(0);
});
