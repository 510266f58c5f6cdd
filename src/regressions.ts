/**
 * The regression corpus: every counterexample `check` finds is kept as
 * reports/regressions/<journal-name>/<hash>.json — readable scenario JSON with a `regression`
 * block naming what it showed. Deduplicated by the hash of the scenario; never overwritten;
 * written durably. A journal's name becomes a folder name only once made safe (folderName).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InvariantCode } from '../model/violation.js';
import { parseScenarioDocument, scenarioToJson, type Scenario } from '../simulator/scenario/scenario.js';
import { makeDirDurably, sweepLeftovers, writeFileDurably } from './durableFile.js';
import { DurasimError } from '../model/contract/failure.js';
import { findingText } from './findingJson.js';
import { readScenarioText } from './cli/scenarioFile.js';

export const REGRESSIONS_DIR = 'reports/regressions';

export interface RegressionInfo {
  /** The adapter's name: the corpus folder it is kept in. */
  journal: string;
  invariants: InvariantCode[];
  seed?: number;
  /** When it was saved (ISO 8601); files saved before durasim recorded it have none (their age is the file's time). */
  savedAt?: string;
}

export interface Regression {
  file: string;
  scenario: Scenario;
  info: RegressionInfo;
}

export function scenarioHash(scenario: Scenario): string {
  return createHash('sha256').update(JSON.stringify(scenarioToJson(scenario))).digest('hex').slice(0, 16);
}

/**
 * A journal name as a single, harmless folder name: letters, digits, ".", "_" and "-", no leading
 * dot, no "..". A name that had to change gets a short hash of the original, so two names never share a folder.
 */
export function folderName(journal: string): string {
  const cleaned = journal.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/\.{2,}/g, '-').replace(/^[.-]+/, '').slice(0, 80);
  if (cleaned === journal && cleaned.length > 0) return cleaned;
  return `${cleaned || 'journal'}-${createHash('sha256').update(journal).digest('hex').slice(0, 8)}`;
}

/**
 * Saves a counterexample unless the same scenario is already stored; returns its path. The file
 * records the journal it was found with (`module`: what --journal took, as the user named it;
 * default: the name, as a bundled journal is named) and the date it was saved.
 */
export function saveRegression(scenario: Scenario, info: Omit<RegressionInfo, 'savedAt'> & { module?: string }, root = REGRESSIONS_DIR): { file: string; isNew: boolean } {
  const { module, ...recorded } = info;
  const dir = join(root, folderName(info.journal));
  const file = join(dir, `${scenarioHash(scenario)}.json`);
  if (existsSync(file)) return { file, isNew: false };
  makeDirDurably(dir);
  // allow-ambient: the date a file was saved, metadata for `durasim regressions` (never read by a simulation).
  const savedAt = new Date().toISOString();
  writeFileDurably(file, findingText(scenario, { name: info.journal, module: module ?? info.journal }, { regression: { ...recorded, savedAt } }));
  return { file, isNew: true };
}

/** The journal's stored regressions, in file order; a file that is not a valid scenario is a usage error naming it. */
export function loadRegressions(journal: string, root = REGRESSIONS_DIR): Regression[] {
  const dir = join(root, folderName(journal));
  if (!existsSync(dir)) return [];
  sweepLeftovers(dir); // a regression a killed check was saving
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      const fix = 'Fix or delete the file, or pass another folder with --regressions';
      const text = readScenarioText(file, fix, 'load the regression corpus'); // a FIFO or a device there is refused by name
      try {
        const { scenario, json } = parseScenarioDocument(text);
        return { file, scenario, info: (json.regression as RegressionInfo | undefined) ?? { journal, invariants: [] } };
      } catch (error) {
        const reason = error instanceof DurasimError ? error.reason : error instanceof Error ? error.message : String(error);
        throw new DurasimError('load the regression corpus', `${file} is not a valid scenario (${reason})`, 'Fix or delete the file, or pass another folder with --regressions');
      }
    });
}

/** Every journal folder with stored regressions. */
export function regressionJournals(root = REGRESSIONS_DIR): string[] {
  return existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
}
