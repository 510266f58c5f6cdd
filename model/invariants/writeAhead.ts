import { describeGap, everIn, short, type DurabilityGap, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/** write-ahead: a request reaches the service only after authorized and dispatched are durable, with its digest. */
export function checkWriteAhead(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  for (const request of input.requests) {
    if (request.route.kind !== 'publish' || request.route.key === undefined || request.recordsAtArrival === undefined) continue;
    const key = request.route.key;
    const record = request.recordsAtArrival[key];
    const history = record?.kind === 'operation' ? record.history : [];
    const digest = record?.kind === 'operation' ? record.digest : undefined;
    // authorized may have been observed earlier, when the journal keeps only its current state.
    const authorized = record?.kind === 'operation' && everIn(input, key, 'authorized', request.seq ?? 0, record);
    const ok = authorized && history.at(-1) === 'dispatched' && digest === request.digest;
    if (ok) continue;
    violations.push({
      code: 'write-ahead',
      key,
      step: request.seq ?? 0,
      expected: `durable ${words.state(key, 'authorized')} and ${words.state(key, 'dispatched')} with digest ${short(request.digest)} before request #${request.index} arrived`,
      actual: `${history.length === 0 ? 'no durable record of the key' : `durable history [${words.history(record)}] with digest ${short(digest)}`}${omission(request.gapsAtArrival, request.unsyncedAtArrival)}`,
      evidence: { request: { index: request.index, method: request.method, digest: request.digest }, durableHistory: history, recordedDigest: digest, unsyncedAtArrival: request.unsyncedAtArrival ?? [], missing: request.gapsAtArrival ?? [] },
    });
  }
  return violations;
}

/** Why the records were not durable, from the disk's durability model: the step each file was missing, what a machine crash at that moment would have lost. */
function omission(gaps: readonly DurabilityGap[] | undefined, unsynced: readonly string[] | undefined): string {
  if ((unsynced === undefined || unsynced.length === 0) && gaps !== undefined && gaps.length > 0) return ` (only in the page cache: ${gaps.map(describeGap).join('; ')})`;
  return unsynced === undefined || unsynced.length === 0 ? '' : ` (only in the page cache: a machine crash here would lose ${unsynced.join('; ')})`;
}
