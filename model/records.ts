/**
 * A journal's records as the judge reads them. `inspect()` may report, per key, the whole history
 * it recorded (`history`), or only its current state (`state`), or both; durasim observes the
 * durable image after every change and builds the sequence of states itself (observedHistory.ts).
 * normalizeRecords turns what inspect() returned into one shape: `history` always present (the
 * recorded one, or `[state]`), `reported: 'state'` when it was the current state only.
 */
import type { FileHistory, OperationHistory, Records } from './evidence.js';

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
    const reported = history === undefined ? { reported: 'state' as const } : {};
    if (value.kind === 'file') {
      const preserved = strings(value.preserved) ? value.preserved : [];
      const record: FileHistory = { kind: 'file', path: typeof value.path === 'string' ? value.path : '', history: [...states], preserved: [...preserved], ...reported };
      records[key] = record;
      continue;
    }
    const record: OperationHistory = { kind: 'operation', history: [...states], ...reported };
    if (typeof value.digest === 'string') record.digest = value.digest;
    if (typeof value.receipt === 'string') record.receipt = value.receipt;
    records[key] = record;
  }
  return { records, problems };
}
