/** A scenario file named on the command line, read and validated; a file that cannot be read is said in the house style with `fix`. */
import { readFileSync } from 'node:fs';
import { parseScenarioText, type Scenario } from '../../simulator/scenario/scenario.js';
import { DurasimError } from '../../model/contract/failure.js';

export function readScenarioFile(file: string, fix: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DurasimError('read the scenario', `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, fix);
  }
  return parseScenarioText(text);
}
