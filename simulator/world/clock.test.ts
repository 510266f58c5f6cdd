import { describe, expect, test } from 'vitest';
import { VirtualClock } from './clock.js';

describe('VirtualClock', () => {
  test('advances to the next timer only, firing same-millisecond timers in the order set', () => {
    const clock = new VirtualClock();
    const fired: string[] = [];
    clock.at(30, 'c', () => fired.push('c'));
    clock.at(10, 'a', () => fired.push('a'));
    clock.at(10, 'b', () => fired.push('b'));
    expect(clock.nowMs).toBe(0);
    for (const t of clock.advance()) t.fire();
    expect([clock.nowMs, fired]).toEqual([10, ['a', 'b']]);
    for (const t of clock.advance()) t.fire();
    expect([clock.nowMs, fired]).toEqual([30, ['a', 'b', 'c']]);
    expect(clock.advance()).toEqual([]);
  });

  test('cancelled timers never fire and do not move time', () => {
    const clock = new VirtualClock();
    const timer = clock.at(5, 'x', () => {
      throw new Error('must not fire');
    });
    clock.cancel(timer);
    expect(clock.nextDueMs()).toBeUndefined();
    expect(clock.advance()).toEqual([]);
    expect(clock.nowMs).toBe(0);
  });

  test('negative delays are clamped to now', () => {
    const clock = new VirtualClock(100);
    clock.at(-5, 'x', () => {});
    expect(clock.nextDueMs()).toBe(100);
  });
});
