import { describe, expect, test } from 'vitest';
import type { Violation } from '../../model/violation.js';
import { cutShort, realOnly, realProcessesLine } from './realRestart.js';

const v = (code: Violation['code'], key: string): Violation => ({ code, key, step: 0, expected: '', actual: '', evidence: {} });

describe("a real restart's parting: real processes broke an invariant the simulation did not", () => {
  test('a safety violation only the real run has parts the worlds, whatever confirm labelled it (diverged too), completed or cut short', () => {
    for (const completed of [true, false]) {
      expect(realOnly([v('write-ahead', 'post-b')], [], completed)).toBe(true);
      expect(realOnly([v('write-ahead', 'post-b')], [v('write-ahead', 'post-a')], completed)).toBe(true);
    }
  });

  test('a liveness violation only the real run has parts the worlds where the real run completed (a staged file left, a journal error)', () => {
    expect(realOnly([v('convergence', 'task-1.post-a.0-0.part')], [], true)).toBe(true);
    expect(realOnly([v('journal-error', '')], [], true)).toBe(true);
    expect(realOnly([v('convergence', 'post-b')], [v('convergence', 'post-a')], true)).toBe(true);
  });

  test('what both worlds broke, a liveness failure of a real run cut short (its wall-clock limit, a bound), or nothing is no parting', () => {
    expect(realOnly([v('write-ahead', 'post-b')], [v('write-ahead', 'post-b')], true)).toBe(false);
    expect(realOnly([v('convergence', 'post-a')], [v('convergence', 'post-a')], true)).toBe(false);
    expect(realOnly([v('convergence', '')], [], false)).toBe(false);
    expect(realOnly([v('journal-error', '')], [], false)).toBe(false);
    expect(realOnly([], [], true)).toBe(false);
  });
});

describe('a real restart cut short decides nothing, and says so', () => {
  const confirmation = { verdict: 'not reproduced', lines: ['a real restart of the clean task (in flight):', 'simulated: no violation', 'real (60012 ms, 31 worker steps): convergence []', 'verdict: not reproduced — real processes broke convergence [], the simulation did not'] };

  test("cut short by its wall-clock limit: the verdict line names the bound in place of confirm's label", () => {
    const said = cutShort(confirmation, { kind: 'bounds-exceeded', detail: 'the real run took over 60000 ms' });
    expect(said.verdict).toBe('cut short');
    expect(realProcessesLine(said)).toBe('in real processes: cut short — the real run took over 60000 ms: this restart decided nothing (a real run that does not finish is no finding; a busy machine slows it), and the verdict is the simulation\'s');
    expect(said.lines.slice(0, 3)).toEqual(confirmation.lines.slice(0, 3));
  });

  test('a real run that completed keeps confirm\'s label', () => {
    expect(cutShort(confirmation, { kind: 'completed' })).toBe(confirmation);
    expect(cutShort(confirmation, undefined)).toBe(confirmation);
  });
});
