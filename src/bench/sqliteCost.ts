/**
 * What a journal on SQLite costs against one on files, on one core, in one run: the better-sqlite3
 * example (rollback journal, synchronous=EXTRA: SQLite compiled to WebAssembly, every page read,
 * write and sync a step) and the jsonfile example (the same protocol, its state one JSON file)
 * simulate and are judged on the same scenarios with fresh modules at every incarnation (as check
 * runs them), in alternating rounds, counting CPU time; the best round of each is kept.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { compileJournal, type JournalInstances } from '../isolation/journalInstances.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { PACKAGE_ROOT } from '../ownFiles.js';
import { standardWorkload } from './workload.js';

const cpuMs = (): number => {
  const usage = process.cpuUsage(); // allow-ambient: the bench measures the harness, outside any simulation
  return (usage.user + usage.system) / 1000;
};

const compiled = async (file: string): Promise<JournalInstances> => compileJournal(await bundleJournal(journalRefOf(join(PACKAGE_ROOT, file))), new URL('../index.ts', import.meta.url).pathname);

/** A commit of the rollback-journal database: the `-journal` file's deletion, its commit point. */
const isCommit = (entry: { op: string; detail?: string }): boolean => entry.op === 'sqlite.xDelete' && (entry.detail ?? '').startsWith('journal.db-journal');

export interface SqliteCost {
  /** CPU ms a scenario, simulated and judged: the file journal, the SQLite one. */
  fileMs: number;
  sqliteMs: number;
  ratio: number;
  /** Trace entries a scenario. */
  entries: { file: number; sqlite: number };
  /** SQLite transactions committed a scenario, and the SQLite journal's CPU past the file journal's per transaction (µs). */
  commits: number;
  extraUsPerCommit: number;
}

export async function sqliteCost(options: { scenarios: number; rounds: number; seed: number }): Promise<SqliteCost> {
  const journals = { file: await compiled('examples/libraries/jsonfile/journal.ts'), sqlite: await compiled('examples/libraries/better-sqlite3/journal.ts') };
  const scenarios = fc.sample(standardWorkload, { numRuns: options.scenarios, seed: options.seed });
  const entries = { file: 0, sqlite: 0 };
  let commits = 0;
  for (const which of ['file', 'sqlite'] as const) {
    for (const scenario of scenarios.slice(0, 10)) judge(await simulate(journals[which].fresh(), scenario, { fresh: journals[which].fresh }));
  }
  const best = { file: Number.POSITIVE_INFINITY, sqlite: Number.POSITIVE_INFINITY };
  for (let round = 0; round < options.rounds; round++) {
    for (const which of ['file', 'sqlite'] as const) {
      let traced = 0;
      const started = cpuMs();
      for (const scenario of scenarios) {
        const result = await simulate(journals[which].fresh(), scenario, { fresh: journals[which].fresh });
        judge(result);
        traced += result.trace.length;
        if (which === 'sqlite' && round === 0) commits += result.trace.filter(isCommit).length;
      }
      best[which] = Math.min(best[which], (cpuMs() - started) / scenarios.length);
      entries[which] = traced / scenarios.length;
    }
  }
  const perScenario = commits / scenarios.length;
  return { fileMs: best.file, sqliteMs: best.sqlite, ratio: best.sqlite / best.file, entries, commits: perScenario, extraUsPerCommit: perScenario > 0 ? ((best.sqlite - best.file) * 1000) / perScenario : 0 };
}
