import { describe, expect, test } from 'vitest';
import type { RequestEvidence } from '../evidence.js';
import { checkSingleFlight } from './singleFlight.js';
import { D1, post, run } from './fixtures.js';

const sent = (index: number, seq: number, doneSeq: number | undefined, sender: string): RequestEvidence => ({ ...post(index, 'a', D1, seq), sender, ...(doneSeq === undefined ? {} : { doneSeq }) });

describe('single-flight', () => {
  test('fires when a second write of a key arrives while the first still waits for its answer, even if the service deduplicated it', () => {
    const violations = checkSingleFlight(run({ requests: [sent(0, 10, 14, 'worker-0#0'), sent(1, 12, 15, 'worker-1#0')] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'single-flight', key: 'a', step: 12 })]);
    expect(violations[0]?.actual).toBe('request #1 from worker-1#0 arrived while request #0 from worker-0#0 was still waiting for its answer');
  });

  test('fires when the first never got an answer and its sender lives on', () => {
    expect(checkSingleFlight(run({ requests: [sent(0, 10, undefined, 'worker-0#0'), sent(1, 30, 31, 'worker-0#0')] }))).toHaveLength(1);
  });

  test('holds for sends one after another, after the first sender died or gave up, and for other keys', () => {
    expect(checkSingleFlight(run({ requests: [sent(0, 10, 14, 'worker-0#0'), sent(1, 14, 20, 'worker-0#0')] }))).toEqual([]);
    expect(checkSingleFlight(run({ requests: [sent(0, 10, 11, 'worker-0#0'), sent(1, 30, 31, 'worker-0#1')] }))).toEqual([]);
    expect(checkSingleFlight(run({ requests: [sent(0, 10, 20, 'worker-0#0'), { ...post(1, 'b', D1, 12), doneSeq: 13 }] }))).toEqual([]);
  });
});
