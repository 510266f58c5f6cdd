/**
 * The trace-hash corpus (principle 2): saved scenarios, each with the journal it ran and the trace
 * hash it gave. Whatever the generators or the simulator become, replaying the corpus must give
 * every hash again; a change that must alter traces bumps the scenario format version instead.
 *
 * The corpus holds the scenarios themselves, never the seeds that drew them: a seed replays only
 * while the generator stays the same. It is built from every fault family (the default generator,
 * which switches families on and off per run), every built-in journal (the reference, the
 * coordinated journal and every mutant), the Node-API example and its defective copy, a journal
 * running several promise chains in one process (properties/fixtures/concurrentChains.ts), both
 * transports, journals evaluated afresh at every incarnation as the pool does, and every scenario
 * file the repository keeps (seeds, hand-minimal counterexamples, regressions).
 *
 * Stored as gzipped JSON lines (reports/trace-corpus.jsonl.gz): one entry a line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { DurasimError } from '../../model/contract/failure.js';
import { simulate } from '../../simulator/simulate.js';
import type { Transport } from '../../simulator/service/network.js';
import { FAULT_KINDS, scenarioArbitrary, type FaultKind } from '../arbitraries.js';
import { SCENARIO_VERSION } from '../../simulator/scenario/scenario.js';
import { writeFileDurably } from '../durableFile.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { compileJournal, type JournalInstances } from '../isolation/journalInstances.js';
import { bundledJournal, journalRefOf, MUTANT_NAMES } from '../isolation/journalRef.js';
import { CODE_ROOT, ownModule } from '../ownFiles.js';

export const TRACE_CORPUS_FILE = 'reports/trace-corpus.jsonl.gz';

/** A journal of the corpus: a bundled journal's name, or a module path relative to the repository. */
export type CorpusJournal = string;

export interface CorpusEntry {
  journal: CorpusJournal;
  /** shared: one instance of the journal's modules for the whole run; fresh: evaluated afresh at every incarnation (bundled, as the pool runs it). */
  modules: 'shared' | 'fresh';
  transport: Transport;
  /** Where the scenario came from (a generator draw, or a file of the repository). */
  source: string;
  scenario: unknown;
  traceHash: string;
  /** For a reader of a difference: how long the trace was and how the run ended. */
  traceEntries: number;
  outcome: string;
}

const NODE_EXAMPLE = 'examples/node-journal/journal.ts';
const NODE_EXAMPLE_UNSYNCED = 'examples/node-journal/journal-unsynced.ts';
/** Several promise chains in one process: how the world interleaves them shows in its traces. */
const CONCURRENT_CHAINS = 'properties/fixtures/concurrentChains.ts';
/** Node's whole-file calls, which a format bump split into steps (format 2). */
const NODE_FILE_API = 'properties/fixtures/nodeFileApiJournal.ts';
const IN_PLACE_STATE = 'properties/fixtures/inPlaceStateJournal.ts';
/** Concurrent calls in one process (the concurrent family, drawn only when named). */
const CLAIMS_AFTER_A_READ = 'properties/fixtures/claimsAfterAReadJournal.ts';
/** Journals on SQLite (served better-sqlite3 over WebAssembly SQLite, its VFS on the simulated disk): rollback journal, WAL/NORMAL, and two workers meeting SQLite's locks. Bundled, so fresh modules only. */
const SQLITE_EXAMPLE = 'examples/libraries/better-sqlite3/journal.ts';
const SQLITE_WAL_NORMAL = 'examples/libraries/better-sqlite3/wal-normal.ts';
const SQLITE_NO_IMMEDIATE = 'examples/libraries/better-sqlite3/no-immediate.ts';

/** What the corpus is drawn from: journal, how many generated scenarios, at which seed, and how they run. */
interface Draw {
  journal: CorpusJournal;
  runs: number;
  seed: number;
  modules?: 'shared' | 'fresh';
  transport?: Transport;
  /** The fault families drawn (default: the generator's default). */
  faults?: readonly FaultKind[];
}

function draws(): Draw[] {
  return [
    { journal: 'reference', runs: 500, seed: 101 },
    { journal: 'coordinated', runs: 400, seed: 102 },
    { journal: NODE_EXAMPLE, runs: 300, seed: 103 },
    { journal: NODE_EXAMPLE_UNSYNCED, runs: 60, seed: 104 },
    { journal: 'reference', runs: 60, seed: 105, transport: 'msw' },
    { journal: 'reference', runs: 60, seed: 106, modules: 'fresh' },
    { journal: NODE_EXAMPLE, runs: 60, seed: 107, modules: 'fresh' },
    { journal: 'coordinated', runs: 40, seed: 108, modules: 'fresh' },
    { journal: CONCURRENT_CHAINS, runs: 150, seed: 109 },
    { journal: CONCURRENT_CHAINS, runs: 30, seed: 110, modules: 'fresh' },
    { journal: NODE_FILE_API, runs: 60, seed: 111 },
    { journal: IN_PLACE_STATE, runs: 100, seed: 112 },
    { journal: 'reference', runs: 120, seed: 113, faults: FAULT_KINDS },
    { journal: 'coordinated', runs: 60, seed: 114, faults: FAULT_KINDS },
    { journal: CLAIMS_AFTER_A_READ, runs: 60, seed: 115, faults: ['concurrent', 'duplicate', 'crash'], modules: 'fresh' },
    ...MUTANT_NAMES.map((name, i) => ({ journal: name, runs: 25, seed: 200 + i })),
    { journal: SQLITE_EXAMPLE, runs: 80, seed: 116, modules: 'fresh' },
    { journal: SQLITE_WAL_NORMAL, runs: 40, seed: 117, modules: 'fresh' },
    { journal: SQLITE_NO_IMMEDIATE, runs: 40, seed: 118, modules: 'fresh', faults: ['duplicate', 'crash', 'disk', 'io'] },
  ];
}

/** Every scenario file the repository keeps, with the journals it is replayed with. */
function savedScenarios(root: string): { journal: CorpusJournal; source: string; scenario: unknown }[] {
  const read = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8')) as unknown;
  const jsonIn = (dir: string): string[] => readdirSync(join(root, dir)).filter((name) => name.endsWith('.json')).sort();
  const out: { journal: CorpusJournal; source: string; scenario: unknown }[] = [];
  for (const name of jsonIn('reports/seeds')) {
    const file = `reports/seeds/${name}`;
    for (const journal of ['reference', 'coordinated']) out.push({ journal, source: file, scenario: read(file) });
  }
  for (const name of jsonIn('reports/mutants/minimal')) {
    const file = `reports/mutants/minimal/${name}`;
    out.push({ journal: name.replace(/\.json$/, ''), source: file, scenario: read(file) });
  }
  for (const folder of readdirSync(join(root, 'reports/regressions')).sort()) {
    if (bundledJournal(folder) === undefined) continue;
    for (const name of jsonIn(`reports/regressions/${folder}`)) {
      const file = `reports/regressions/${folder}/${name}`;
      out.push({ journal: folder, source: file, scenario: read(file) });
    }
  }
  return out;
}

/** Loads the corpus's journals once each: the adapter, and its fresh instances when an entry wants them. */
class Journals {
  private readonly adapters = new Map<CorpusJournal, JournalAdapter>();
  private readonly instances = new Map<CorpusJournal, JournalInstances>();

  constructor(private readonly root: string) {}

  async adapter(journal: CorpusJournal): Promise<JournalAdapter> {
    const known = this.adapters.get(journal);
    if (known) return known;
    const ref = journalRefOf(bundledJournal(journal) ? journal : join(this.root, journal));
    const module = (await import(ref.file)) as Record<string, unknown>;
    const adapter = (ref.exportName ? module[ref.exportName] : (module.default ?? module.journal)) as JournalAdapter;
    this.adapters.set(journal, adapter);
    return adapter;
  }

  async fresh(journal: CorpusJournal): Promise<JournalInstances> {
    const known = this.instances.get(journal);
    if (known) return known;
    const ref = journalRefOf(bundledJournal(journal) ? journal : join(this.root, journal));
    const instances = await compileJournal(await bundleJournal(ref), ownModule('src/index'));
    this.instances.set(journal, instances);
    return instances;
  }
}

async function run(journals: Journals, entry: Omit<CorpusEntry, 'traceHash' | 'traceEntries' | 'outcome'>): Promise<{ traceHash: string; traceEntries: number; outcome: string }> {
  const fresh = entry.modules === 'fresh' ? (await journals.fresh(entry.journal)).fresh : undefined;
  const journal = fresh ? fresh() : await journals.adapter(entry.journal);
  const result = await simulate(journal, entry.scenario, { transport: entry.transport, ...(fresh ? { fresh } : {}) });
  return { traceHash: result.traceHash, traceEntries: result.trace.length, outcome: result.outcome.kind };
}

/**
 * Draws the corpus afresh from today's generator and simulator (to start a corpus), or — after a
 * format bump — adds the new version's draws to `kept`, the entries of older versions, which keep
 * replaying under their own rules (the scenario files the repository keeps are among them once).
 */
export async function buildTraceCorpus(root = CODE_ROOT, onProgress: (done: number, total: number) => void = () => {}, kept: readonly CorpusEntry[] = []): Promise<CorpusEntry[]> {
  const planned: Omit<CorpusEntry, 'traceHash' | 'traceEntries' | 'outcome'>[] = [];
  // A later version's draws: half as many (the older version's entries still cover what did not change), at other seeds.
  const later = kept.length > 0;
  for (const draw of draws()) {
    const seed = later ? draw.seed + 1000 * SCENARIO_VERSION : draw.seed;
    const scenarios = fc.sample(scenarioArbitrary(draw.faults ? { faults: draw.faults } : {}), { numRuns: later ? Math.ceil(draw.runs / 2) : draw.runs, seed });
    scenarios.forEach((scenario, i) => planned.push({ journal: draw.journal, modules: draw.modules ?? 'shared', transport: draw.transport ?? 'direct', source: `generated seed ${seed} #${i}`, scenario }));
  }
  const known = new Set(kept.map((e) => `${e.journal} ${e.source}`));
  for (const saved of savedScenarios(root)) if (!known.has(`${saved.journal} ${saved.source}`)) planned.push({ ...saved, modules: 'shared', transport: 'direct' });
  const journals = new Journals(root);
  const out: CorpusEntry[] = [...kept];
  for (const entry of planned) {
    out.push({ ...entry, ...(await run(journals, entry)) });
    onProgress(out.length - kept.length, planned.length);
  }
  return out;
}

export interface CorpusDifference {
  index: number;
  entry: CorpusEntry;
  now: { traceHash: string; traceEntries: number; outcome: string };
}

/** Replays every entry; returns those whose trace hash is not the saved one. */
export async function replayTraceCorpus(entries: readonly CorpusEntry[], root = CODE_ROOT, onProgress: (done: number, total: number) => void = () => {}): Promise<CorpusDifference[]> {
  const journals = new Journals(root);
  const differences: CorpusDifference[] = [];
  for (const [index, entry] of entries.entries()) {
    const now = await run(journals, entry);
    if (now.traceHash !== entry.traceHash) differences.push({ index, entry, now });
    onProgress(index + 1, entries.length);
  }
  return differences;
}

export function readTraceCorpus(file = join(CODE_ROOT, TRACE_CORPUS_FILE)): CorpusEntry[] {
  let text: string;
  try {
    text = gunzipSync(readFileSync(file)).toString('utf8');
  } catch (error) {
    throw new DurasimError('read the trace-hash corpus', `${file} could not be read as gzipped JSON lines (${error instanceof Error ? error.message : String(error)})`, 'Restore it from git, or write a new one with npm run trace-corpus -- --write');
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as CorpusEntry);
}

export function writeTraceCorpus(entries: readonly CorpusEntry[], file = join(CODE_ROOT, TRACE_CORPUS_FILE)): void {
  writeFileDurably(file, gzipSync(`${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`, { level: 9 }));
}
