/** A scenario file named on the command line, read and validated; a file that cannot be read is said in the house style with `fix`. */
import { parseScenarioDocument, recordedJournalOf, type Scenario } from '../../simulator/scenario/scenario.js';
import { DurasimError } from '../../model/contract/failure.js';
import { SCENARIO_LIMITS } from '../../simulator/scenario/scenarioLimits.js';
import { readInputFile } from '../readInputFile.js';

/** The most bytes a scenario file may take: its limit in characters, 4 bytes of UTF-8 at most each. */
export const SCENARIO_FILE_BYTES = SCENARIO_LIMITS.fileChars * 4;

/** A scenario file's text: a regular file, read up to the limit (readInputFile); `action` names what it is read as. */
export function readScenarioText(file: string, fix: string, action = 'read the scenario'): string {
  return readInputFile(file, {
    action,
    fix,
    limitBytes: SCENARIO_FILE_BYTES,
    tooLarge: (size) => new DurasimError(action, `${file} is ${size}, over the limit of ${SCENARIO_LIMITS.fileChars} characters`, 'A scenario is a test case: shorten its texts and lists.'),
  });
}

export function readScenarioFile(file: string, fix: string, action = 'read the scenario'): Scenario {
  return parseScenarioDocument(readScenarioText(file, fix, action)).scenario;
}

/** What a scenario file says of the journal it was found with: its `journal` record, else (a regression saved before durasim recorded one) its regression block's journal name. */
export interface FileJournal {
  name: string;
  /** What --journal would take; absent when the file records only the name. */
  module?: string;
}

/** A finding's file (counterexample.json, a regression): the scenario, and the journal it records, if any. */
export function readFindingFile(file: string, fix: string): { scenario: Scenario; recorded?: FileJournal } {
  const { scenario, json } = parseScenarioDocument(readScenarioText(file, fix));
  const regression = json.regression as { journal?: unknown } | undefined;
  const recorded = recordedJournalOf(json) ?? (typeof regression?.journal === 'string' && regression.journal !== '' ? { name: regression.journal } : undefined);
  return recorded ? { scenario, recorded } : { scenario };
}
