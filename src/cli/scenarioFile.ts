/** A scenario file named on the command line, read and validated; a file that cannot be read is said in the house style with `fix`. */
import { readFileSync, statSync } from 'node:fs';
import { parseScenarioText, type Scenario } from '../../simulator/scenario/scenario.js';
import { DurasimError } from '../../model/contract/failure.js';
import { SCENARIO_LIMITS } from '../../simulator/scenario/scenarioLimits.js';

export function readScenarioFile(file: string, fix: string): Scenario {
  let text: string;
  try {
    // Refused before it is read: a file too large to be a scenario (4 bytes of UTF-8 at most per character).
    const bytes = statSync(file).size;
    if (bytes > SCENARIO_LIMITS.fileChars * 4) throw new DurasimError('load scenario', `the file is ${bytes} bytes, over the limit of ${SCENARIO_LIMITS.fileChars} characters`, 'A scenario is a test case: shorten its texts and lists.');
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof DurasimError) throw error;
    throw new DurasimError('read the scenario', `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, fix);
  }
  return parseScenarioText(text);
}
