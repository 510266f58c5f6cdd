import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * single-flight: at most one write per key is in flight at the service at any moment, whatever
 * its idempotency. A write is in flight from its arrival until its sender stops waiting for it
 * (the answer arrived, the sender gave up on it, or the sender died). Two workers that both
 * believe they own a key are caught here even when the service deduplicates their sends.
 * Measured in trace order, which refines virtual time.
 */
export function checkSingleFlight(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const reported = new Set<string>();
  const writes = input.requests.filter((r) => r.route.kind === 'publish' && r.route.key !== undefined && r.seq !== undefined);
  for (const later of writes) {
    const key = later.route.key as string;
    if (reported.has(key)) continue;
    const open = writes.find((earlier) => earlier.route.key === key && (earlier.seq as number) < (later.seq as number) && (earlier.doneSeq === undefined || earlier.doneSeq > (later.seq as number)));
    if (open === undefined) continue;
    reported.add(key);
    const who = (r: typeof later): string => (r.sender ? ` from ${r.sender}` : '');
    violations.push({
      code: 'single-flight',
      key,
      step: later.seq as number,
      expected: `no second write of ${key} while request #${open.index} is in flight`,
      actual: `request #${later.index}${who(later)} arrived while request #${open.index}${who(open)} was still waiting for its answer`,
      evidence: { inFlight: { index: open.index, sender: open.sender, arrivedAt: open.seq, doneAt: open.doneSeq }, second: { index: later.index, sender: later.sender, arrivedAt: later.seq } },
    });
  }
  return violations;
}
