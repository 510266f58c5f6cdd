import { checkpoints, effectsUpTo, everIn, lostBy, operationSpec, short, sourceChanges, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * truthful-outcome, after every crash (durable image) and at the end: succeeded ⇒ the service holds
 * the key with the recorded digest and receipt (a lookup: the resource's value); conflict ⇒ the
 * service holds another digest for the key, or (a file) the user really changed it; failed ⇒ the
 * service holds no effect of the recorded intent that the run's requests made, unless the journal
 * heard a refusal (a 4xx) for the key; never dispatched ⇒
 * no effect.
 */
export function checkTruthfulOutcome(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const reported = new Set<string>();
  const report = (v: Omit<Violation, 'code'>, claim: string): void => {
    if (reported.has(`${v.key}/${claim}`)) return;
    reported.add(`${v.key}/${claim}`);
    violations.push({ code: 'truthful-outcome', ...v });
  };
  for (const cp of checkpoints(input)) {
    const effects = effectsUpTo(input, cp.seq);
    for (const [key, record] of Object.entries(cp.records)) {
      if (record.kind === 'file') {
        if (record.history.includes('conflict') && !input.userEdits.some((u) => u.path === record.path && u.seq <= cp.seq)) {
          report({ key, step: cp.seq, expected: `a ${words.state(key, 'conflict')} on ${record.path} only after the user changed it`, actual: `a ${words.state(key, 'conflict')} recorded while nobody else wrote the file`, evidence: { at: cp.label, history: record.history } }, 'file-conflict');
        }
        continue;
      }
      const spec = operationSpec(input, key);
      const held = effects.filter((e) => e.key === key);
      if (record.history.includes('succeeded')) {
        if (spec?.kind === 'lookup') {
          // The resource's value at the start, or one it took later (input-change) before this image.
          const value = spec.resource === undefined ? undefined : input.scenario.service.resources[spec.resource];
          const later = sourceChanges(input).filter((change) => change.seq <= cp.seq && change.resource === spec.resource);
          const values = [value, ...later.map((change) => change.value)];
          if (!values.includes(record.receipt)) {
            report({ key, step: cp.seq, expected: `${words.state(key, 'succeeded')} with the resource's value ${values.map((v) => JSON.stringify(v)).join(' or ')}`, actual: `receipt ${JSON.stringify(record.receipt)}`, evidence: { at: cp.label, history: record.history } }, 'succeeded');
          }
        } else if (!held.some((e) => e.digest === record.digest && e.receipt === record.receipt)) {
          report({
            key,
            step: cp.seq,
            expected: `the service to hold ${key} with digest ${short(record.digest)} and receipt ${JSON.stringify(record.receipt)}`,
            actual: held.length === 0 ? 'the service holds no effect for the key' : `the service holds ${held.map((e) => `digest ${short(e.digest)} receipt ${e.receipt}`).join('; ')}`,
            evidence: { at: cp.label, history: record.history, recordedDigest: record.digest, recordedReceipt: record.receipt, effects: held },
          }, 'succeeded');
        }
      }
      if (record.history.includes('conflict') && spec?.kind !== 'lookup' && !held.some((e) => e.digest !== record.digest)) {
        report({
          key,
          step: cp.seq,
          expected: `the service to hold another intent under ${key}`,
          actual: held.length === 0 ? 'the service holds nothing under the key' : `the service holds only the recorded intent (${short(record.digest)})`,
          evidence: { at: cp.label, history: record.history, effects: held },
        }, 'conflict');
      }
      // failed is terminal: the journal's last word that the operation did not happen. With an effect of
      // the very intent at the service (the run's request committed it: a lost or mangled answer, a
      // timeout, a reset) and no refusal heard, the user is told it failed when it happened.
      // A refusal the journal heard (a 4xx answer to a request of the key that reached it) is its
      // evidence, even where a fault put that answer on a request the service had committed before.
      if (spec?.kind === 'publish' && record.history.at(-1) === 'failed') {
        const happened = held.filter((e) => e.requestIndex !== null && (record.digest === undefined || e.digest === record.digest));
        const refused = input.requests.some((r) => r.route.key === key && r.answered === true && r.status >= 400 && r.status < 500 && (r.doneSeq ?? r.seq ?? 0) <= cp.seq);
        if (happened.length > 0 && !refused) {
          report({
            key,
            step: cp.seq,
            expected: `${words.state(key, 'failed')} only for an intent the service does not hold`,
            actual: `the service holds ${key} with the recorded intent (digest ${short(happened[0]?.digest)}, receipt ${JSON.stringify(happened[0]?.receipt)})`,
            evidence: { at: cp.label, history: record.history, recordedDigest: record.digest, effects: happened },
          }, 'failed');
        }
      }
      if (spec?.kind === 'publish' && !everIn(input, key, 'dispatched', cp.seq, record)) {
        const made = held.filter((e) => e.requestIndex !== null);
        if (made.length > 0) {
          report({ key, step: cp.seq, expected: `no effect for a key never recorded ${words.state(key, 'dispatched')}`, actual: `${made.length} effect(s), history [${words.history(record)}]${lostBy(cp.gaps)}`, evidence: { at: cp.label, history: record.history, effects: made, missing: cp.gaps ?? [] } }, 'never-dispatched');
        }
      }
    }
    for (const effect of effects) {
      if (effect.requestIndex === null || cp.records[effect.key] !== undefined || operationSpec(input, effect.key) === undefined) continue;
      report({ key: effect.key, step: cp.seq, expected: 'a durable record of the operation the service committed', actual: `no record of ${effect.key} in the ${cp.label}${lostBy(cp.gaps)}`, evidence: { at: cp.label, effect, missing: cp.gaps ?? [] } }, 'never-dispatched');
    }
  }
  return violations;
}
