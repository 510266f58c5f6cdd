/**
 * The words a message names a state with: the one place that decides them. A journal in the
 * model's vocabulary is named in the model's words, as ever. A journal with its own state names
 * (JournalAdapter.states: stateNames.ts) is named in its own, the model's state in brackets:
 * `sending [dispatched]`; and each violation shows the brackets once, where a word first appears in
 * it (judge.ts calls bracketOnce), so `expected a transition the model allows from sending
 * [dispatched] …; actual sending → queued [authorized]`.
 *
 * Which word: a recorded or observed entry is named by the journal's word for it (a state it reached
 * by several words in a row, a sub-state and the state it refines, by all of them: `timeout/retry_wait
 * [outcome_unknown]`). A model state named as such ("durable authorized and dispatched") is named by
 * the words the key's records used for it, else by the mapping's words for it, else by the model's
 * word alone — in brackets when the journal uses that word for another state.
 */
import type { JudgeInput, ObservedState, Records } from './evidence.js';
import { stateMapOf, type StateMap } from './stateNames.js';

export interface StateWords {
  /** A model state of `key`'s records, as the journal names it. */
  state(key: string, state: string): string;
  /** Entry `index` of a record's history. */
  entry(record: { history: readonly string[]; names?: readonly string[] | undefined }, index: number): string;
  /** A record's whole history, its entries joined by `separator`. */
  history(record: { history: readonly string[]; names?: readonly string[] | undefined } | undefined, separator?: string): string;
  /** An observed state. */
  observed(observed: ObservedState): string;
  /** The violation's texts (expected, then actual) with each bracket kept where its word first appears. */
  once(texts: readonly string[]): string[];
}

const MODEL_WORDS: StateWords = {
  state: (_key, state) => state,
  entry: (record, index) => record.history[index] ?? '',
  history: (record, separator = ', ') => (record?.history ?? []).join(separator),
  observed: (o) => o.state,
  once: (texts) => [...texts],
};

const cache = new WeakMap<JudgeInput, StateWords>();

/** The words of `input`'s journal: the model's, unless it has its own state names. */
export function wordsOf(input: JudgeInput): StateWords {
  if (input.states === undefined) return MODEL_WORDS;
  const known = cache.get(input);
  if (known) return known;
  const words = ownWords(input, stateMapOf(input.states));
  cache.set(input, words);
  return words;
}

/** A state named by the journal's word(s) for it, the model's in brackets (none when they are the same word). */
export function named(words: string | undefined, state: string): string {
  return words === undefined || words === state ? state : `${words} [${state}]`;
}

/** A record's history in the journal's words (or the model's, without names), joined by `separator`: for reports. */
export function historyWords(record: { history: readonly string[]; names?: readonly string[] | undefined }, separator: string): string {
  return record.history.map((state, i) => named(record.names?.[i], state)).join(separator);
}

function ownWords(input: JudgeInput, map: StateMap): StateWords {
  let used: Map<string, Map<string, string[]>> | undefined;
  const usedBy = (key: string): Map<string, string[]> | undefined => (used ??= usedWords(input)).get(key);
  const tokens = new Set<string>();
  const say = (words: string | undefined, state: string): string => {
    const text = named(words, state);
    if (text !== state) tokens.add(text);
    return text;
  };
  return {
    state(key, state) {
      const words = usedBy(key)?.get(state) ?? map.wordsFor(state);
      if (words.length > 0) return say(words.join('/'), state);
      // A model state the journal has no word for: its own word, unless the journal means another state by it.
      return map.names[state] === undefined ? state : `[${state}]`;
    },
    entry: (record, index) => say(record.names?.[index], record.history[index] ?? ''),
    history: (record, separator = ', ') => (record?.history ?? []).map((state, i) => say(record?.names?.[i], state)).join(separator),
    observed: (o) => say(o.name, o.state),
    once(texts) {
      if (tokens.size === 0) return [...texts];
      const pattern = new RegExp(`(?<![\\w/-])(${[...tokens].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})`, 'g');
      const seen = new Set<string>();
      return texts.map((text) => text.replace(pattern, (token: string) => {
        if (!seen.has(token)) {
          seen.add(token);
          return token;
        }
        return token.slice(0, token.lastIndexOf(' [')) || token;
      }));
    },
  };
}

/** Per key, per model state, the journal's words its records and the observations used for it, each once, in order. */
function usedWords(input: JudgeInput): Map<string, Map<string, string[]>> {
  const used = new Map<string, Map<string, string[]>>();
  const add = (key: string, state: string, words: string | undefined): void => {
    if (words === undefined) return;
    const byState = used.get(key) ?? new Map<string, string[]>();
    used.set(key, byState);
    const list = byState.get(state) ?? [];
    byState.set(state, list);
    for (const word of words.split('/')) if (!list.includes(word)) list.push(word);
  };
  const addAll = (records: Records | undefined): void => {
    for (const [key, record] of Object.entries(records ?? {})) record.history.forEach((state, i) => add(key, state, record.names?.[i]));
  };
  for (const [key, states] of Object.entries(input.observed)) for (const o of states) add(key, o.state, o.name);
  for (const crash of input.crashes) {
    addAll(crash.records);
    addAll(crash.visible);
  }
  addAll(input.final.durable);
  addAll(input.final.visible);
  for (const request of input.requests) addAll(request.recordsAtArrival);
  return used;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
