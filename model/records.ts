/**
 * A journal's records as the judge reads them. `inspect()` may report, per key, the whole history
 * it recorded (`history`), or only its current state (`state`), or both; durasim observes the
 * durable image after every change and builds the sequence of states itself (observedHistory.ts).
 * normalizeRecords turns what inspect() returned into one shape: `history` always present (the
 * recorded one, or `[state]`), `reported: 'state'` when it was the current state only.
 *
 * With the journal's own state names (`names`, JournalAdapter.states: stateNames.ts), each word is
 * read as the model's state it maps to; the history holds the model's states, folded where a
 * sub-state meets the state it refines, and `names` beside it the journal's words, one per entry
 * (a folded entry's words joined by "/", each once, in order). A word the mapping does not know
 * and that is no state of the model is refused with both lists.
 */
import type { FileHistory, OperationHistory, Records } from './evidence.js';
import { FILE_STATES, OPERATION_STATES } from './lifecycle.js';
import { stateMapOf, type StateMap, type StateNames } from './stateNames.js';

export interface NormalizedRecords {
  records: Records;
  /** What was wrong with the answer: each a journal bug, reported as an inspect() error. */
  problems: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((s) => typeof s === 'string');

export function normalizeRecords(raw: unknown, names?: StateNames): NormalizedRecords {
  const map = names === undefined ? undefined : stateMapOf(names);
  const records: Records = {};
  const problems: string[] = [];
  if (!isObject(raw)) return { records, problems: [`inspect() returned ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}, not an object of records by key`] };
  for (const [key, value] of Object.entries(raw)) {
    const problem = (what: string): void => {
      problems.push(`the record of ${JSON.stringify(key)} ${what}`);
    };
    if (!isObject(value) || (value.kind !== 'operation' && value.kind !== 'file')) {
      problem("is not { kind: 'operation' | 'file', … }");
      continue;
    }
    const { history, state } = value;
    if (history !== undefined && !strings(history)) {
      problem('has a history that is not a list of state names');
      continue;
    }
    if (state !== undefined && typeof state !== 'string') {
      problem('has a state that is not a state name');
      continue;
    }
    if (history === undefined && state === undefined) {
      problem('has neither a state nor a history');
      continue;
    }
    if (history !== undefined && state !== undefined && history.at(-1) !== state) {
      problem(`says its state is ${state} but its history ends at ${history.at(-1) ?? 'nothing'}`);
    }
    const words = history ?? [state as string];
    const known: readonly string[] = value.kind === 'file' ? FILE_STATES : OPERATION_STATES;
    let states = words;
    let named: { names: string[] } | Record<string, never> = {};
    if (map === undefined) {
      const unknown = words.find((name) => !known.includes(name));
      if (unknown !== undefined) {
        problem(`has the state ${JSON.stringify(unknown)}, which is not a${value.kind === 'file' ? ' file' : 'n operation'} state (${known.join(', ')})`);
        continue;
      }
    } else {
      const read = inOwnWords(words, value.kind, map);
      if (typeof read === 'string') {
        problem(read);
        continue;
      }
      states = read.history;
      named = { names: read.names };
    }
    const reported = history === undefined ? { reported: 'state' as const } : {};
    if (value.kind === 'file') {
      if (typeof value.path !== 'string' || value.path === '' || value.path.startsWith('/') || value.path.split('/').includes('..')) {
        problem(`has the path ${JSON.stringify(value.path)}: a file record names the file it edits, relative to the work folder`);
        continue;
      }
      if (value.preserved !== undefined && !strings(value.preserved)) {
        problem('has a preserved that is not a list of the user\'s texts');
        continue;
      }
      const preserved = strings(value.preserved) ? value.preserved : [];
      const record: FileHistory = { kind: 'file', path: value.path, history: [...states], preserved: [...preserved], ...reported, ...named };
      records[key] = record;
      continue;
    }
    for (const field of ['digest', 'receipt'] as const) {
      if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string') problem(`has a ${field} that is not a string (${JSON.stringify(value[field])})`);
    }
    const record: OperationHistory = { kind: 'operation', history: [...states], ...reported, ...named };
    if (typeof value.digest === 'string') record.digest = value.digest;
    if (typeof value.receipt === 'string') record.receipt = value.receipt;
    records[key] = record;
  }
  return { records, problems };
}

/**
 * A history in the journal's words, read through its mapping: the model's states (a sub-state
 * folded into the entry of the state it refines, when they meet) and the words of each entry; or
 * what is wrong with a word.
 */
function inOwnWords(words: readonly string[], kind: 'operation' | 'file', map: StateMap): { history: string[]; names: string[] } | string {
  const history: string[] = [];
  const names: string[] = [];
  let runHasSub = false;
  for (const word of words) {
    const meaning = map.meaning(word, kind);
    if (meaning === undefined) {
      const known: readonly string[] = kind === 'file' ? FILE_STATES : OPERATION_STATES;
      return `has the state ${JSON.stringify(word)}, which is neither one of the journal's states (${map.words.join(', ')}: its adapter's states) nor a${kind === 'file' ? ' file' : 'n operation'} state of the model (${known.join(', ')})`;
    }
    if (!(kind === 'file' ? (FILE_STATES as readonly string[]) : (OPERATION_STATES as readonly string[])).includes(meaning.state)) {
      return `has the state ${JSON.stringify(word)}, which its adapter's states map to ${meaning.state}, not a${kind === 'file' ? ' file' : 'n operation'} state (${(kind === 'file' ? FILE_STATES : OPERATION_STATES).join(', ')})`;
    }
    const last = history.length - 1;
    if (last >= 0 && history[last] === meaning.state && (runHasSub || meaning.sub)) {
      const parts = (names[last] as string).split('/');
      if (!parts.includes(word)) names[last] = `${names[last]}/${word}`;
      runHasSub = true;
      continue;
    }
    history.push(meaning.state);
    names.push(word);
    runHasSub = meaning.sub;
  }
  return { history, names };
}
