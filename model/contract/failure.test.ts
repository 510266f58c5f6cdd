import { describe, expect, test } from 'vitest';
import { DurasimError, failureMessage } from './failure.js';

describe('failureMessage', () => {
  test('builds the house style word for word', () => {
    expect(failureMessage('load scenario', 'faults[2].when must be "before" or "after"', 'Fix the scenario file')).toBe(
      'Failed to load scenario: faults[2].when must be "before" or "after". Fix the scenario file.',
    );
  });
  test('does not double the punctuation', () => {
    expect(failureMessage('run journal', 'it called Date.now.', 'Use env.clock.now().')).toBe(
      'Failed to run journal: it called Date.now. Use env.clock.now().',
    );
  });
  test('DurasimError keeps the parts', () => {
    const error = new DurasimError('read file', 'it is missing', 'Create it');
    expect(error.message).toBe('Failed to read file: it is missing. Create it.');
    expect([error.action, error.reason, error.fix]).toEqual(['read file', 'it is missing', 'Create it']);
  });
});
