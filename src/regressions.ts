/**
 * The regression corpus: every counterexample `check` finds is kept as
 * reports/regressions/<journal-name>/<hash>.json — readable scenario JSON with a `regression`
 * block naming what it showed. Deduplicated by the hash of the scenario; never overwritten.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InvariantCode } from '../model/violation.js';
import { parseScenarioText, scenarioToJson, type Scenario } from '../simulator/scenario.js';

export const REGRESSIONS_DIR = 'reports/regressions';

export interface RegressionInfo {
  journal: string;
  invariants: InvariantCode[];
  seed?: number;
}

export interface Regression {
  file: string;
  scenario: Scenario;
  info: RegressionInfo;
}

export function scenarioHash(scenario: Scenario): string {
  return createHash('sha256').update(JSON.stringify(scenarioToJson(scenario))).digest('hex').slice(0, 16);
}

/** Saves a counterexample unless the same scenario is already stored; returns its path. */
export function saveRegression(scenario: Scenario, info: RegressionInfo, root = REGRESSIONS_DIR): { file: string; isNew: boolean } {
  const dir = join(root, info.journal);
  const file = join(dir, `${scenarioHash(scenario)}.json`);
  if (existsSync(file)) return { file, isNew: false };
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...scenarioToJson(scenario), regression: info }, null, 2)}\n`);
  renameSync(temp, file);
  return { file, isNew: true };
}

export function loadRegressions(journal: string, root = REGRESSIONS_DIR): Regression[] {
  const dir = join(root, journal);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      const raw = JSON.parse(text) as { regression?: RegressionInfo };
      return { file, scenario: parseScenarioText(text), info: raw.regression ?? { journal, invariants: [] } };
    });
}

/** Every journal name with stored regressions. */
export function regressionJournals(root = REGRESSIONS_DIR): string[] {
  return existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
}
