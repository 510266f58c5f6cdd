import { describe, expect, test } from 'vitest';
import type { RequestEvidence } from '../../model/evidence.js';
import type { Violation } from '../../model/violation.js';
import { outrunWaits } from './outrunWaits.js';

const early: Violation = { code: 'failure-class-respected', key: 'a', step: 40, expected: '', actual: '', evidence: { unavailable: 0, again: 1, retryAfterMs: 8000 } };
const post = (index: number, atMs: number, extra: Partial<RequestEvidence> = {}): RequestEvidence => ({ index, method: 'POST', route: { kind: 'publish', key: 'a' }, status: 201, atMs, ...extra });

describe("a 503's wait that real time outran", () => {
  test('the real send again came after the wait was over: said, with both numbers', () => {
    const requests = [post(0, 5, { status: 503, retryAfterMs: 8000 }), post(1, 18_416)];
    expect(outrunWaits([early], [], { requests })).toEqual([
      '  failure-class-respected [a] races real time: in real processes the next send of a came 18411 ms after the 503 that asked for 8000 ms (request #0), so the wait was over before it was sent — this real run shows nothing about whether the journal keeps the wait. Confirm it on a quieter machine, or with a longer retryAfterMs in the scenario.',
    ]);
  });

  test('nothing said when the real send again came inside the wait, when the real run broke it too, or for another invariant', () => {
    const inside = [post(0, 5, { status: 503, retryAfterMs: 8000 }), post(1, 900)];
    expect(outrunWaits([early], [], { requests: inside })).toEqual([]);
    const outside = [post(0, 5, { status: 503, retryAfterMs: 8000 }), post(1, 18_416)];
    expect(outrunWaits([early], [early], { requests: outside })).toEqual([]);
    expect(outrunWaits([{ ...early, code: 'single-flight' }], [], { requests: outside })).toEqual([]);
    // No 503 in the real run, or no send again after it: nothing to compare.
    expect(outrunWaits([early], [], { requests: [post(1, 18_416)] })).toEqual([]);
    expect(outrunWaits([early], [], { requests: [post(0, 5, { status: 503, retryAfterMs: 8000 })] })).toEqual([]);
  });
});
