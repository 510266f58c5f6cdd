/**
 * An inspect() answer the judge cannot read (model/records.ts: a record without a state, a state
 * the model does not know, a file record without its path) is the adapter's bad input: exit 2, as a
 * malformed scenario is, never a finding judged on what could be read. The run is saved so that a
 * replay shows the answer again.
 */
import { join } from 'node:path';
import { failureMessage } from '../../model/contract/failure.js';
import type { RecordedJournal, Scenario } from '../../simulator/scenario/scenario.js';
import { findingText } from '../findingJson.js';
import { makeDirDurably, writeFileDurably } from '../durableFile.js';
import { EXIT } from './exitCodes.js';
import { removeStaleReports } from '../report/reportFiles.js';

/** The message's parts: the first problem, how many more, where the run came from, and what to return. */
export function inspectProblemsParts(problems: readonly string[], where: string | undefined, replay: string | undefined): { action: string; reason: string; fix: string } {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return {
    action: "read the journal's records",
    reason: `inspect() answered${where ? `, in ${where}` : ''}: ${problems[0] ?? 'nothing it could be judged by'}${more}`,
    fix: `Return per key { kind: 'operation' | 'file', a state or history of the states docs/invariants.md lists, a file's path relative to the work folder } (docs/adapters.md)${replay ? `; ${replay} shows the run` : ''}`,
  };
}

/** The message, word for word (one formatter for every failure). */
export function inspectProblemsMessage(problems: readonly string[], where: string | undefined, replay: string | undefined): string {
  const { action, reason, fix } = inspectProblemsParts(problems, where, replay);
  return failureMessage(action, reason, fix);
}

/** Saves the run's scenario in the report folder, prints the message, returns exit code 2. */
export function reportInspectProblems(problems: readonly string[], scenario: Scenario, where: string, journal: RecordedJournal, reportDir: string, print: (line: string) => void): number {
  makeDirDurably(reportDir);
  const file = join(reportDir, 'counterexample.json');
  writeFileDurably(file, findingText(scenario, journal));
  removeStaleReports(reportDir, ['counterexample.json']); // the folder is the run's (check's, explore's): no earlier verdict stays beside it
  print(inspectProblemsMessage(problems, where, `npx durasim replay ${file} --journal ${journal.module}`));
  return EXIT.usage;
}
