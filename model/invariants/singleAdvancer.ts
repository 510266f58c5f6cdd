import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { holderAt, isConditional, isTaskKey, leaseTenures, slotOf, workersTakeLease } from './leases.js';

/**
 * single-advancer: the task's checkpoint advances at most once from each version, and — when the
 * task's lease is in use — only by the worker that holds that lease at that moment on the store's
 * clock. An advance is an applied conditional write to one of the task's keys. Two advances from
 * one version happen when a store forgets (volatile memory) and versions repeat; an advance by a
 * non-holder is a worker that judged its lease by its own clock, or kept going after it expired.
 */
export function checkSingleAdvancer(input: JudgeInput): Violation[] {
  const calls = input.store?.calls ?? [];
  const tenures = leaseTenures(input);
  const violations: Violation[] = [];
  const from = new Map<string, { seq: number; by: string }>();
  for (const call of calls) {
    const r = call.request;
    if (!call.applied || (r.op !== 'put' && r.op !== 'delete') || !isConditional(r) || !isTaskKey(input, r.key)) continue;
    const base = `${r.key}@${r.ifAbsent ? 'absent' : `v${r.ifVersion}`}`;
    const earlier = from.get(base);
    if (earlier) {
      violations.push({
        code: 'single-advancer',
        key: r.key as string,
        step: call.seq,
        expected: `one advance of ${r.key} from ${r.ifAbsent ? 'absent' : `version ${r.ifVersion}`}`,
        actual: `${call.by} advanced it again from there at #${call.seq}; ${earlier.by} already had at #${earlier.seq}`,
        evidence: { base, first: earlier, second: { seq: call.seq, by: call.by } },
      });
    } else from.set(base, { seq: call.seq, by: call.by });
    if (!workersTakeLease(tenures)) continue;
    const holder = holderAt(tenures, call.seq, call.storeTimeMs);
    if (holder?.holder === slotOf(call.by)) continue;
    violations.push({
      code: 'single-advancer',
      key: r.key as string,
      step: call.seq,
      expected: `${r.key} advanced only by the holder of lease ${input.scenario.task.id ?? ''} at store time ${call.storeTimeMs}`,
      actual: holder ? `${call.by} advanced it while ${holder.holder} held the lease (token ${holder.token})` : `${call.by} advanced it while nobody held the lease (${describeLast(tenures.filter((t) => t.fromSeq <= call.seq).at(-1))})`,
      evidence: { call: call.index, storeTimeMs: call.storeTimeMs, holder: holder ?? null },
    });
  }
  return violations;
}

function describeLast(tenure: { holder: string; untilMs: number; endSeq?: number } | undefined): string {
  if (!tenure) return 'it was never granted';
  return tenure.endSeq !== undefined ? `${tenure.holder}'s tenure was given up at #${tenure.endSeq}` : `${tenure.holder}'s tenure ran out at ${tenure.untilMs}`;
}
