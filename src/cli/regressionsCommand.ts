/**
 * durasim regressions [list|prune]: the regression corpus (reports/regressions/<journal>/<hash>.json,
 * or --regressions), seen and retired as deliberately as it grows. `list` shows every stored
 * regression — its file, journal, invariants, the fault families it uses (src/faultFamilies.ts) and
 * its age — and `prune` deletes, durably, the ones the filters choose (--journal, --family,
 * --older-than; at least one), printing each, or with --dry-run only says what it would delete.
 *
 * A file's age is measured from the date durasim recorded when it saved it (`regression.savedAt`);
 * a file saved before durasim recorded one is aged by its modification time, and the line says so.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FaultKind } from '../arbitraries.js';
import { removeDurably, removeEmptyDirDurably } from '../durableFile.js';
import { faultFamiliesOf } from '../faultFamilies.js';
import { bundledJournal, journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { folderName, loadRegressions, regressionJournals } from '../regressions.js';
import { count } from '../report/count.js';
import { loadOrEscape, type PoolFlags } from './check.js';
import { EXIT } from './exitCodes.js';

export interface RegressionsOptions extends PoolFlags {
  action: 'list' | 'prune';
  regressionsDir: string;
  /** Only this journal's: its name, or its module (loaded to read its name). */
  journal?: string;
  /** Only those that use any of these fault families. */
  families?: readonly FaultKind[];
  /** Only those older than this. */
  olderThanMs?: number;
  /** prune: say what would be deleted, delete nothing. */
  dryRun?: boolean;
}

/** One stored regression as listed. */
export interface StoredRegression {
  file: string;
  journal: string;
  invariants: string[];
  families: FaultKind[];
  /** When it was saved (epoch ms), and whence that is known. */
  savedMs: number;
  savedFrom: 'savedAt' | 'file time';
}

/** Every stored regression under `root` (of the journal folder `only`, if given), in folder and file order. */
export function storedRegressions(root: string, only?: string): StoredRegression[] {
  const folders = regressionJournals(root).filter((folder) => only === undefined || folder === folderName(only));
  return folders.flatMap((folder) =>
    loadRegressions(folder, root).map(({ file, scenario, info }) => {
      const recorded = typeof info.savedAt === 'string' ? Date.parse(info.savedAt) : Number.NaN;
      return {
        file,
        journal: typeof info.journal === 'string' ? info.journal : folder,
        invariants: Array.isArray(info.invariants) ? info.invariants.map(String) : [],
        families: faultFamiliesOf(scenario),
        savedMs: Number.isNaN(recorded) ? statSync(file).mtimeMs : recorded,
        savedFrom: Number.isNaN(recorded) ? ('file time' as const) : ('savedAt' as const),
      };
    }),
  );
}

/** An age as a person reads it: minutes, hours, then days. */
export function ageText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h`;
  return count(Math.floor(minutes / (24 * 60)), 'day');
}

/** A regression's line: file, journal, invariants, families, age and whence the age. */
export function regressionLine(r: StoredRegression, nowMs: number): string {
  const date = new Date(r.savedMs).toISOString().slice(0, 10);
  const age = `${ageText(nowMs - r.savedMs)} old (${r.savedFrom === 'savedAt' ? `saved ${date}` : `file time ${date}; no savedAt recorded`})`;
  return `${r.file} · journal ${r.journal} · ${r.invariants.length > 0 ? r.invariants.join(', ') : 'no invariant recorded'} · families ${r.families.length > 0 ? r.families.join(', ') : 'none'} · ${age}`;
}

/** The journal name --journal means: a stored journal's or a bundled one's name as is; a module's adapter name (exit 4 if it escapes while it loads). */
async function journalName(spec: string, options: RegressionsOptions, print: (line: string) => void): Promise<string | number> {
  if (regressionJournals(options.regressionsDir).includes(folderName(spec)) || bundledJournal(spec) || !existsSync(resolve(spec))) return spec;
  const pool = new WorkerPool({ ...options, workers: 1 });
  try {
    const loaded = await loadOrEscape(pool, journalRefOf(spec), print);
    return typeof loaded === 'number' ? loaded : loaded.name;
  } finally {
    await pool.close();
  }
}

export async function runRegressions(options: RegressionsOptions, print: (line: string) => void): Promise<number> {
  const journal = options.journal === undefined ? undefined : await journalName(options.journal, options, print);
  if (typeof journal === 'number') return journal;
  // allow-ambient: a regression's age is measured against the real date (never inside a simulation).
  const nowMs = Date.now();
  const all = storedRegressions(options.regressionsDir);
  const chosen = all.filter((r) =>
    (journal === undefined || dirname(r.file) === join(options.regressionsDir, folderName(journal))) &&
    (options.families === undefined || r.families.some((f) => options.families?.includes(f))) &&
    (options.olderThanMs === undefined || nowMs - r.savedMs > options.olderThanMs));
  const filters = [
    ...(journal !== undefined ? [`journal ${journal}`] : []),
    ...(options.families ? [`families ${options.families.join(',')}`] : []),
    ...(options.olderThanMs !== undefined ? [`older than ${ageText(options.olderThanMs)}`] : []),
  ];
  // "5 of 37 stored regressions in reports/regressions (families concurrent,intent)", or all of them: "37 stored regressions in …".
  const which = `${filters.length > 0 ? `${chosen.length} of ` : ''}${count(all.length, 'stored regression')} in ${options.regressionsDir}${filters.length > 0 ? ` (${filters.join(' · ')})` : ''}`;
  if (options.action === 'list') {
    for (const r of chosen) print(regressionLine(r, nowMs));
    print(chosen.length === 0 ? which : `${which}, of ${count(new Set(chosen.map((r) => r.journal)).size, 'journal')}`);
    return EXIT.clean;
  }
  for (const r of chosen) {
    print(`${options.dryRun ? 'would delete' : 'deleted'} ${regressionLine(r, nowMs)}`);
    if (options.dryRun) continue;
    removeDurably(r.file);
    removeEmptyDirDurably(dirname(r.file)); // a journal with none left: no empty folder to list
  }
  print(options.dryRun ? `would delete ${which}: a dry run, nothing deleted` : `deleted ${which}`);
  return EXIT.clean;
}
