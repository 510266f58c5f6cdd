import { describe, expect, test } from 'vitest';
import { invariant, SimulatorInvariantError } from './invariant.js';

describe('invariant', () => {
  test('passes silently when it holds, and names itself a durasim bug when it does not', () => {
    expect(() => invariant(true, 'fine')).not.toThrow();
    expect(() => invariant(false, 'receipt r1 issued twice')).toThrow(
      new SimulatorInvariantError('receipt r1 issued twice'),
    );
    expect(new SimulatorInvariantError('x').message).toBe('durasim internal invariant broken: x. Please report it with the scenario file.');
  });
});
