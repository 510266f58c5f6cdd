/**
 * Shrinking a failing scenario: fast-check's shrink trees, walked as its runner walks them — take
 * the first smaller candidate that still fails, start again from it, stop when none does — but
 * with the candidates of each round tried `parallel` at a time. The first failing candidate in
 * stream order wins, so the result is the same for any degree of parallelism. A candidate `keep`
 * refuses (one outside the run's shape: runShape.ts) is passed over, neither run nor counted.
 */
import type fc from 'fast-check';
import type { Scenario } from '../../simulator/scenario/scenario.js';

export interface ShrinkResult {
  value: fc.Value<Scenario>;
  /** Candidates tried. */
  attempts: number;
  /** Smaller failing scenarios taken. */
  steps: number;
  /** True when the attempt budget ran out before the shrink finished. */
  exhausted: boolean;
  /** True when `stop` said so before the shrink finished (an interrupted check): the smallest failing scenario so far. */
  stopped?: boolean;
}

export async function shrinkScenario(
  arbitrary: fc.Arbitrary<Scenario>,
  failing: fc.Value<Scenario>,
  stillFails: (scenario: Scenario) => Promise<boolean>,
  options: { parallel: number; maxAttempts: number; keep?: (scenario: Scenario) => boolean; onProgress?: (attempts: number, steps: number, current: Scenario) => void; stop?: () => boolean },
): Promise<ShrinkResult> {
  let current = failing;
  let attempts = 0;
  let steps = 0;
  for (;;) {
    const candidates = arbitrary.shrink(current.value_, current.context)[Symbol.iterator]();
    let next: fc.Value<Scenario> | undefined;
    let more = true;
    while (next === undefined && more) {
      if (attempts >= options.maxAttempts) return { value: current, attempts, steps, exhausted: true };
      if (options.stop?.()) return { value: current, attempts, steps, exhausted: false, stopped: true };
      const batch: fc.Value<Scenario>[] = [];
      while (batch.length < Math.max(1, options.parallel)) {
        const item = candidates.next();
        if (item.done) {
          more = false;
          break;
        }
        if (options.keep === undefined || options.keep(item.value.value_)) batch.push(item.value);
      }
      attempts += batch.length;
      const verdicts = await Promise.all(batch.map((candidate) => stillFails(candidate.value_)));
      next = batch[verdicts.indexOf(true)];
      options.onProgress?.(attempts, steps + (next === undefined ? 0 : 1), (next ?? current).value_);
    }
    if (next === undefined) return { value: current, attempts, steps, exhausted: false };
    current = next;
    steps++;
  }
}
