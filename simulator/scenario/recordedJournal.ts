/**
 * The journal a scenario file was found with: what durasim records in every file it writes for a
 * finding (counterexample.json, a regression), so that replay, explain and confirm run that
 * journal and not another. Not part of the simulation: the simulator never reads it.
 *
 *   "journal": { "name": "my-journal", "module": "./my-journal.ts" }
 *
 * `name` is the adapter's name; `module` is what `--journal` would take: the module's path as the
 * user named it (relative to the folder the command ran in), or a bundled journal's name.
 */
import { fail, isRecord, str, strict, describe, type Json } from './scenarioValidators.js';

export interface RecordedJournal {
  /** The adapter's `name`. */
  name: string;
  /** What `--journal` would take: a module path as the user named it, or a bundled journal's name. */
  module: string;
}

/** The recorded journal of a scenario file's JSON (its top-level `journal`), checked; undefined when the file records none. */
export function recordedJournalOf(value: Json): RecordedJournal | undefined {
  if (!isRecord(value) || value.journal === undefined) return undefined;
  const journal = value.journal;
  if (!isRecord(journal)) fail('journal', `must be an object { "name", "module" } (the journal the scenario was found with), found ${describe(journal)}`);
  strict(journal, 'journal', ['name', 'module'], ['name', 'module']);
  const name = str(journal.name, 'journal.name');
  const module = str(journal.module, 'journal.module');
  if (name === '') fail('journal.name', 'must not be empty');
  if (module === '') fail('journal.module', 'must not be empty');
  return { name, module };
}
