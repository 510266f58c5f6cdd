/**
 * A journal's records as the judge reads them. `inspect()` may report, per key, the whole history
 * it recorded (`history`), or only its current state (`state`), or both; durasim observes the
 * durable image after every change and builds the sequence of states itself (observedHistory.ts).
 * normalizeRecords turns what inspect() returned into one shape: `history` always present (the
 * recorded one, or `[state]`), `reported: 'state'` when it was the current state only.
 */
import type { FileHistory, OperationHistory, Records } from './evidence.js';
import { FILE_STATES, OPERATION_STATES } from './lifecycle.js';

export interface NormalizedRecords {
  records: Records;
  /** What was wrong with the answer: each a journal bug, reported as an inspect() error. */
  problems: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((s) => typeof s === 'string');

export function normalizeRecords(raw: unknown): NormalizedRecords {
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
    const states = history ?? [state as string];
    const known: readonly string[] = value.kind === 'file' ? FILE_STATES : OPERATION_STATES;
    const unknown = states.find((name) => !known.includes(name));
    if (unknown !== undefined) {
      problem(`has the state ${JSON.stringify(unknown)}, which is not a${value.kind === 'file' ? ' file' : 'n operation'} state (${known.join(', ')})`);
      continue;
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
      const record: FileHistory = { kind: 'file', path: value.path, history: [...states], preserved: [...preserved], ...reported };
      records[key] = record;
      continue;
    }
    for (const field of ['digest', 'receipt'] as const) {
      if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string') problem(`has a ${field} that is not a string (${JSON.stringify(value[field])})`);
    }
    const record: OperationHistory = { kind: 'operation', history: [...states], ...reported };
    if (typeof value.digest === 'string') record.digest = value.digest;
    if (typeof value.receipt === 'string') record.receipt = value.receipt;
    records[key] = record;
  }
  return { records, problems };
}
