/**
 * durasim's own failures: exit 5, never 1 — a harness error must never read as a finding about the
 * journal. The scenario that triggered it is saved (durably) so it can be reported and replayed.
 */
import { join } from 'node:path';
import { scenarioToJson, type Scenario } from '../../simulator/scenario/scenario.js';
import { makeDirDurably, writeFileDurably } from '../durableFile.js';
import { failureMessage } from '../../model/contract/failure.js';
import { EXIT } from './exitCodes.js';
import { removeStaleReports } from '../report/reportFiles.js';

export class HarnessFailure extends Error {
  constructor(message: string, readonly scenario?: Scenario) {
    super(message);
    this.name = 'HarnessFailure';
  }
}

/**
 * Saves the scenario (if any) to the report folder and says what to report; returns exit code 5.
 * When the folder is the run's own (`ownsFolder`: check's, explore's, replay's --report-dir), the
 * report files of an earlier run are removed, so no earlier verdict sits beside the failure.
 */
export function reportHarnessFailure(message: string, scenario: Scenario | undefined, reportDir: string, print: (line: string) => void, ownsFolder = false): number {
  let where = 'the command line you ran';
  if (scenario) {
    try {
      makeDirDurably(reportDir);
      const file = join(reportDir, 'harness-failure.json');
      writeFileDurably(file, `${JSON.stringify(scenarioToJson(scenario), null, 2)}\n`);
      if (ownsFolder) removeStaleReports(reportDir, ['harness-failure.json']);
      where = `this scenario: ${file}`;
    } catch (error) {
      where = `this scenario (it could not be saved: ${error instanceof Error ? error.message : String(error)}):\n${JSON.stringify(scenarioToJson(scenario))}`;
    }
  }
  const reason = message.replace(/ Please report it with the scenario file\.$/, '');
  print(failureMessage('finish', `durasim itself failed (not a finding about the journal): ${reason}`, `Please report it with ${where}`));
  return EXIT.harness;
}
