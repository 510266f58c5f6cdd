import { describe, expect, test } from 'vitest';
import { AnswerQueue } from './answerQueue.js';

describe('the answers a confirmation holds', () => {
  test('go out when released, those due at the first virtual instant together, a delayed one after its real delay', async () => {
    const sent: string[] = [];
    let wakes = 0;
    const queue = new AnswerQueue(() => wakes++);
    expect(queue.releaseDue()).toBe(false); // nothing held
    queue.hold(() => sent.push('a'), 1);
    queue.hold(() => sent.push('late'), 1, 30);
    queue.hold(() => sent.push('b'), 1);
    await Promise.resolve();
    expect(wakes).toBe(3); // each hold tells the parent to look
    expect(sent).toEqual([]); // held until released
    expect(queue.releaseDue()).toBe(true);
    expect(sent).toEqual(['a', 'b']); // both due at virtual 1 ms, in the order they came
    queue.hold(() => sent.push('c'), 1); // asked for at virtual 1 ms: due at 2, before the delayed one (31)
    expect(queue.releaseDue()).toBe(true);
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(queue.releaseDue()).toBe(false); // the delayed one waits out its 30 ms in real time
    await Promise.resolve(); // c's own wake
    const woken = wakes;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(wakes).toBe(woken + 1);
    expect(queue.releaseDue()).toBe(true);
    expect(sent).toEqual(['a', 'b', 'c', 'late']);
    queue.close();
  });
});
