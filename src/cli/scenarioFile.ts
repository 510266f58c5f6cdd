/** A scenario file named on the command line, read and validated; a file that cannot be read is said in the house style with `fix`. */
import { readFileSync, statSync } from 'node:fs';
import { parseScenarioText, recordedJournalOf, type Scenario } from '../../simulator/scenario/scenario.js';
import { DurasimError } from '../../model/contract/failure.js';
import { SCENARIO_LIMITS } from '../../simulator/scenario/scenarioLimits.js';

function readText(file: string, fix: string): string {
  try {
    // Refused before it is read: a file too large to be a scenario (4 bytes of UTF-8 at most per character).
    const bytes = statSync(file).size;
    if (bytes > SCENARIO_LIMITS.fileChars * 4) throw new DurasimError('load scenario', `the file is ${bytes} bytes, over the limit of ${SCENARIO_LIMITS.fileChars} characters`, 'A scenario is a test case: shorten its texts and lists.');
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof DurasimError) throw error;
    throw new DurasimError('read the scenario', `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, fix);
  }
}

export function readScenarioFile(file: string, fix: string): Scenario {
  return parseScenarioText(readText(file, fix));
}

/** What a scenario file says of the journal it was found with: its `journal` record, else (a regression saved before durasim recorded one) its regression block's journal name. */
export interface FileJournal {
  name: string;
  /** What --journal would take; absent when the file records only the name. */
  module?: string;
}

/** A finding's file (counterexample.json, a regression): the scenario, and the journal it records, if any. */
export function readFindingFile(file: string, fix: string): { scenario: Scenario; recorded?: FileJournal } {
  const text = readText(file, fix);
  const scenario = parseScenarioText(text);
  const raw = JSON.parse(text) as { regression?: { journal?: unknown } };
  const recorded = recordedJournalOf(raw) ?? (typeof raw.regression?.journal === 'string' && raw.regression.journal !== '' ? { name: raw.regression.journal } : undefined);
  return recorded ? { scenario, recorded } : { scenario };
}
