/**
 * A journal's own state names (JournalAdapter.states): inspect() may return the journal's words
 * (`queued`, `sending`, `paid`) instead of the model's, with a mapping of each word to the model's
 * state it means. The judge judges the model's states, unchanged; the words travel beside them
 * (OperationHistory.names, ObservedState.name) so that every message names the journal's word with
 * the model's in brackets once (stateWords.ts).
 *
 * Rules:
 * - A word maps to one state of the model (`sending: 'dispatched'`); several words may map to one.
 * - A state the model lacks (a retry wait, a "checking" step) is declared a sub-state of the one it
 *   refines (`retry_wait: { refines: 'outcome_unknown' }`): it is that state for every rule, and
 *   consecutive entries of a history that map to one model state fold into one when a sub-state is
 *   among them (a wait between two outcome_unknown states is no transition). Without a sub-state
 *   among them, a repeat is a repeat in the model too (outcome_unknown → outcome_unknown is a skip).
 * - A model state's own name that the mapping does not name stays itself: inspect() may mix the
 *   two vocabularies. A word the mapping names means what the mapping says, even a model state's.
 * - The mapping is checked when the journal loads (checkStateNames): a target that is not a state
 *   of the model is refused with the model's states listed.
 */
import { DurasimError } from './contract/failure.js';
import { FILE_STATES, OPERATION_STATES, type FileState, type OperationState } from './lifecycle.js';

export type ModelState = OperationState | FileState;
/** The journal's state names, each mapped to the model's state it means, or declared a sub-state of the one it refines. */
export type StateNames = Readonly<Record<string, ModelState | { readonly refines: ModelState }>>;

const MODEL_STATES: readonly string[] = [...new Set<string>([...OPERATION_STATES, ...FILE_STATES])];
/** The model's states as the refusals list them. */
export const MODEL_STATE_LIST = `operation: ${OPERATION_STATES.join(', ')}; file: ${FILE_STATES.join(', ')}`;

const FIX = "Map each of your state names to one of the model's states, or declare a state the model lacks a sub-state of the one it refines, e.g. retry_wait: { refines: 'outcome_unknown' } (docs/adapters.md, \"Your own state names\")";

/** Refuses (DurasimError, action "load the journal") a `states` that is not a mapping of names to the model's states; `who` names the journal. */
export function checkStateNames(states: unknown, who: string): StateNames | undefined {
  if (states === undefined) return undefined;
  const refuse = (reason: string): DurasimError => new DurasimError('load the journal', `the states of ${who} ${reason}`, FIX);
  if (typeof states !== 'object' || states === null || Array.isArray(states)) throw refuse(`are ${states === null ? 'null' : Array.isArray(states) ? 'an array' : typeof states}, not an object of your state names`);
  for (const [word, target] of Object.entries(states)) {
    if (word.trim() === '') throw refuse('name a state with no word ("")');
    const refines = typeof target === 'object' && target !== null && !Array.isArray(target) ? (target as { refines?: unknown }).refines : undefined;
    if (typeof target === 'string') {
      if (!MODEL_STATES.includes(target)) throw refuse(`map "${word}" to "${target}", which is not a state of the model (${MODEL_STATE_LIST})`);
    } else if (typeof refines === 'string' && Object.keys(target as object).length === 1) {
      if (!MODEL_STATES.includes(refines)) throw refuse(`declare "${word}" a sub-state of "${refines}", which is not a state of the model (${MODEL_STATE_LIST})`);
    } else {
      throw refuse(`map "${word}" to ${JSON.stringify(target) ?? String(target)}, which is neither a state of the model nor { refines: <a state of the model> }`);
    }
  }
  return states as StateNames;
}

/** What one of the journal's words means: the model's state, and whether it is a sub-state of it. */
export interface StateMeaning {
  state: string;
  sub: boolean;
}

/** A mapping, ready to read words by: what each word means, and the words of each model state. */
export interface StateMap {
  readonly names: StateNames;
  /** The meaning of a word for a record of `kind`: mapped, or a model state's own name; undefined for neither. */
  meaning(word: string, kind: 'operation' | 'file'): StateMeaning | undefined;
  /** The journal's words for a model state, the plain ones first, in the mapping's order. */
  wordsFor(state: string): string[];
  /** The journal's words, in the mapping's order. */
  readonly words: string[];
}

const maps = new WeakMap<StateNames, StateMap>();

export function stateMapOf(names: StateNames): StateMap {
  const known = maps.get(names);
  if (known) return known;
  const entries = Object.entries(names).map(([word, target]) => ({ word, state: typeof target === 'string' ? target : target.refines, sub: typeof target !== 'string' }));
  const byWord = new Map(entries.map((e) => [e.word, e]));
  const map: StateMap = {
    names,
    words: entries.map((e) => e.word),
    meaning(word, kind) {
      const states: readonly string[] = kind === 'file' ? FILE_STATES : OPERATION_STATES;
      const mapped = byWord.get(word);
      if (mapped) return { state: mapped.state, sub: mapped.sub };
      return states.includes(word) ? { state: word, sub: false } : undefined;
    },
    wordsFor(state) {
      const of = entries.filter((e) => e.state === state);
      return [...of.filter((e) => !e.sub), ...of.filter((e) => e.sub)].map((e) => e.word);
    },
  };
  maps.set(names, map);
  return map;
}
