/**
 * Which journal replay, explain and confirm run a finding's file with — resolved as check resolves
 * its journal, then from what the file records:
 *
 *   1. --journal;
 *   2. else the config's "journal" (durasim.config.json in the working folder, or --config);
 *   3. else the journal the file records: its module if that file exists, or a bundled journal's
 *      name (a regression saved before modules were recorded names only its journal: a bundled
 *      one runs; any other is refused, exit 2);
 *   4. else, for a file that records no journal, the bundled reference journal — said on its own line.
 *
 * A recorded module that no longer exists, with nothing else given, is exit 2 naming the path and
 * the fix. A journal whose adapter name differs from the recorded one runs, after a warning line
 * (before the verdict; in summary.json). A different module with the same adapter name (a moved or
 * fixed copy of the journal) is the same journal: no warning.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DurasimError } from '../../model/contract/failure.js';
import { bundledJournal, journalRefOf, type JournalRef } from '../isolation/journalRef.js';
import type { FileJournal } from './scenarioFile.js';

export interface JournalChoice {
  ref: JournalRef;
  /** Whence the journal: --journal, the config, the file's record, or the default (the file records none). */
  source: 'flag' | 'config' | 'recorded' | 'default';
  recorded?: FileJournal;
  /** Lines said before the run: where the journal came from, when no --journal named it. */
  lines: string[];
}

export interface JournalGiven {
  /** --journal. */
  flag?: string | undefined;
  /** The config's journal (already relative to the working folder), and the config file. */
  config?: string | undefined;
  configFile?: string | undefined;
}

/** The journal to run `file` with (see the rules above); throws (exit 2) when the recorded journal cannot be found. */
export function chooseFindingJournal(file: string, recorded: FileJournal | undefined, given: JournalGiven): JournalChoice {
  const withRecord = recorded ? { recorded } : {};
  if (given.flag !== undefined) return { ref: journalRefOf(given.flag), source: 'flag', ...withRecord, lines: [] };
  if (given.config !== undefined) return { ref: journalRefOf(given.config), source: 'config', ...withRecord, lines: [`journal: ${given.config} (the journal of ${given.configFile ?? 'the config'})`] };
  if (!recorded) return { ref: journalRefOf('reference'), source: 'default', lines: [`journal: reference (the default: ${file} records no journal; pass --journal <module> to run yours)`] };
  const named = recorded.module ?? recorded.name;
  const ref = existsSync(resolve(named)) && recorded.module !== undefined ? journalRefOf(named) : bundledJournal(named);
  if (ref) return { ref, source: 'recorded', recorded, lines: [`journal: ${named} (recorded in ${file})`] };
  if (recorded.module === undefined) {
    throw new DurasimError('choose the journal', `${file} was saved for the journal "${recorded.name}", which is not a bundled journal, and it records no module`, `Pass --journal <module> naming the module of "${recorded.name}"`);
  }
  throw new DurasimError('choose the journal', `${file} was found with the journal "${recorded.name}" of ${recorded.module}, and there is no file at ${resolve(recorded.module)}`, `Pass --journal <module> naming where "${recorded.name}" is now (the path is relative to the folder the finding was made in)`);
}

/** The warning when the journal loaded is not the one the file was found with (by adapter name); undefined when it is, or the file records none. */
export function journalWarning(file: string, choice: JournalChoice, loadedName: string): string | undefined {
  const recorded = choice.recorded;
  if (!recorded || recorded.name === loadedName) return undefined;
  const whence = choice.source === 'flag' ? `--journal ${choice.ref.spec}` : choice.source === 'config' ? `the config's journal ${choice.ref.spec}` : choice.ref.spec;
  return `warning: ${file} was found with the journal "${recorded.name}", and this runs "${loadedName}" (${whence}): its verdict says nothing about "${recorded.name}"`;
}
