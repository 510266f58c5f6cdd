/**
 * A scenario as durasim saves it for a finding (counterexample.json, a regression file, a mutant's
 * counterexample): the scenario's JSON with the journal it was found with recorded right after its
 * version (simulator/scenario/recordedJournal.ts), so that replay, explain and confirm run that
 * journal. The journal record is not part of the scenario: it changes no trace and no hash.
 */
import { scenarioToJson, type RecordedJournal, type Scenario } from '../simulator/scenario/scenario.js';

export function findingJson(scenario: Scenario, journal: RecordedJournal, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { $schema, format, version, ...rest } = scenarioToJson(scenario);
  return { $schema, format, version, journal: { name: journal.name, module: journal.module }, ...rest, ...extra };
}

/** The file's text: the JSON indented, with a final newline. */
export function findingText(scenario: Scenario, journal: RecordedJournal, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify(findingJson(scenario, journal, extra), null, 2)}\n`;
}
