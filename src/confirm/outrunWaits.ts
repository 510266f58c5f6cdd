/**
 * A 503's wait is real time in real processes. A simulated finding that a worker sent again before the wait
 * was over (failure-class-respected) cannot show for real when the real processes took longer than the wait
 * to get there — a busy machine's real restart can take seconds where the simulated one takes 100 ms. Then
 * "not reproduced" says nothing about the journal, and the label says so, with both gaps: the real run's
 * from the 503 to the next send of the key, and the wait asked.
 */
import type { JudgeInput } from '../../model/evidence.js';
import type { Violation } from '../../model/violation.js';

export function outrunWaits(simulated: readonly Violation[], found: readonly Violation[], real: Pick<JudgeInput, 'requests'>): string[] {
  const lines: string[] = [];
  for (const v of simulated) {
    const asked = (v.evidence as { retryAfterMs?: unknown }).retryAfterMs;
    if (v.code !== 'failure-class-respected' || typeof asked !== 'number') continue;
    if (found.some((f) => f.code === v.code && f.key === v.key)) continue;
    const sends = real.requests.filter((r) => r.route.key === v.key && r.route.kind === 'publish');
    const unavailable = sends.find((r) => r.status === 503 && r.retryAfterMs !== undefined);
    if (unavailable === undefined) continue;
    const again = sends.find((r) => r.index > unavailable.index);
    const wait = unavailable.retryAfterMs ?? asked;
    if (again === undefined || again.atMs - unavailable.atMs < wait) continue;
    lines.push(`  ${v.code} [${v.key}] races real time: in real processes the next send of ${v.key} came ${Math.round(again.atMs - unavailable.atMs)} ms after the 503 that asked for ${wait} ms (request #${unavailable.index}), so the wait was over before it was sent — this real run shows nothing about whether the journal keeps the wait. Confirm it on a quieter machine, or with a longer retryAfterMs in the scenario.`);
  }
  return lines;
}
