import { describe, expect, test } from 'vitest';
import { checkStateNames, stateMapOf } from './stateNames.js';

const FIX = "Map each of your state names to one of the model's states, or declare a state the model lacks a sub-state of the one it refines, e.g. retry_wait: { refines: 'outcome_unknown' } (docs/adapters.md, \"Your own state names\").";
const LIST = 'operation: authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled; file: read, conflict, applied';

describe('a journal\'s own state names', () => {
  test('a mapping of words to the model\'s states, several to one, and sub-states, is taken as it is', () => {
    const states = { queued: 'authorized', sending: 'dispatched', timeout: 'outcome_unknown', no_answer: 'outcome_unknown', retry_wait: { refines: 'outcome_unknown' }, paid: 'succeeded' } as const;
    expect(checkStateNames(states, 'pay.ts')).toBe(states);
    expect(checkStateNames(undefined, 'pay.ts')).toBeUndefined();
    const map = stateMapOf(states);
    expect(map.wordsFor('outcome_unknown')).toEqual(['timeout', 'no_answer', 'retry_wait']);
    expect(map.meaning('retry_wait', 'operation')).toEqual({ state: 'outcome_unknown', sub: true });
    // A model state's own name, unmapped, stays itself; a word neither mapped nor the model's means nothing.
    expect(map.meaning('failed', 'operation')).toEqual({ state: 'failed', sub: false });
    expect(map.meaning('applied', 'operation')).toBeUndefined();
    expect(map.meaning('retrying', 'operation')).toBeUndefined();
  });

  test('a target that is not a state of the model is refused, word for word, with the model\'s states', () => {
    const refused = (states: unknown): string => {
      try {
        checkStateNames(states, 'pay.ts');
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ queued: 'authorized', sending: 'dispached' })).toBe(`Failed to load the journal: the states of pay.ts map "sending" to "dispached", which is not a state of the model (${LIST}). ${FIX}`);
    expect(refused({ retry_wait: { refines: 'unknown' } })).toBe(`Failed to load the journal: the states of pay.ts declare "retry_wait" a sub-state of "unknown", which is not a state of the model (${LIST}). ${FIX}`);
    expect(refused({ paid: 3 })).toBe(`Failed to load the journal: the states of pay.ts map "paid" to 3, which is neither a state of the model nor { refines: <a state of the model> }. ${FIX}`);
    expect(refused({ paid: { means: 'succeeded' } })).toBe(`Failed to load the journal: the states of pay.ts map "paid" to {"means":"succeeded"}, which is neither a state of the model nor { refines: <a state of the model> }. ${FIX}`);
    expect(refused(['queued'])).toBe(`Failed to load the journal: the states of pay.ts are an array, not an object of your state names. ${FIX}`);
    expect(refused({ '': 'authorized' })).toBe(`Failed to load the journal: the states of pay.ts name a state with no word (""). ${FIX}`);
  });
});
