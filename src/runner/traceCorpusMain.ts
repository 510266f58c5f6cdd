/**
 * npm run trace-corpus: replays the saved trace-hash corpus and reports every scenario whose trace
 * changed (exit 1), or with --write draws a new corpus from today's generator (only with a scenario
 * format bump: the older versions' entries are kept, the new version's drawn beside them; or to
 * start one), or with --accept <journal>,... re-records the saved hashes of
 * those journals' scenarios only: a journal changed what it writes, not the simulator (the note
 * must say which and why), or with --add <journal>,... adds today's draws of those journals (a new
 * mutant's) once every saved entry replayed the same, keeping them all.
 * Usage: npm run trace-corpus [-- --write | --accept reference,coordinated | --add claim-after-lease]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { failureMessage } from '../../model/contract/failure.js';
import { SCENARIO_VERSION } from '../../simulator/scenario/scenario.js';
import { CODE_ROOT } from '../ownFiles.js';
import { buildTraceCorpus, readTraceCorpus, replayTraceCorpus, TRACE_CORPUS_FILE, writeTraceCorpus } from './traceCorpus.js';

const versionOf = (scenario: unknown): number => Number((scenario as { version?: unknown }).version ?? 1);

const progress = (done: number, total: number): void => {
  if (done % 250 === 0 || done === total) process.stderr.write(`  ${done}/${total}\n`);
};

async function main(args: string[]): Promise<number> {
  const started = performance.now();
  if (args.includes('--write')) {
    // After a format bump the older versions' entries stay (they replay under their own rules); only a first corpus starts from nothing.
    const older = existsSync(join(CODE_ROOT, TRACE_CORPUS_FILE)) ? readTraceCorpus().filter((e) => versionOf(e.scenario) < SCENARIO_VERSION) : [];
    const entries = await buildTraceCorpus(undefined, progress, older);
    writeTraceCorpus(entries);
    console.log(`wrote ${TRACE_CORPUS_FILE}: ${entries.length} scenarios, ${new Set(entries.map((e) => e.journal)).size} journals (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  }
  const entries = readTraceCorpus();
  const differences = await replayTraceCorpus(entries, undefined, progress);
  const addAt = args.indexOf('--add');
  if (addAt !== -1 && differences.length === 0) {
    // A new journal's draws join the corpus; every saved entry stays (it replayed the same just now).
    const named = new Set((args[addAt + 1] ?? '').split(',').filter(Boolean));
    const key = (e: { journal: string; modules: string; transport: string; scenario: unknown }): string => JSON.stringify([e.journal, e.modules, e.transport, e.scenario]);
    const saved = new Set(entries.map(key));
    const added = (await buildTraceCorpus(undefined, progress)).filter((e) => named.has(e.journal) && !saved.has(key(e)));
    writeTraceCorpus([...entries, ...added]);
    console.log(`added ${added.length} scenarios of ${[...named].join(', ')} to ${TRACE_CORPUS_FILE}: ${entries.length + added.length} in all`);
    return 0;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (differences.length === 0) {
    console.log(`trace-hash corpus: all ${entries.length} scenarios replay the same trace (${seconds} s)`);
    return 0;
  }
  const acceptAt = args.indexOf('--accept');
  if (acceptAt !== -1) {
    const accepted = new Set((args[acceptAt + 1] ?? '').split(',').filter(Boolean));
    const refused = differences.filter((d) => !accepted.has(d.entry.journal));
    if (refused.length > 0) {
      console.error(failureMessage('accept the changed traces', `${refused.length} of them belong to journals not named (${[...new Set(refused.map((d) => d.entry.journal))].join(', ')})`, 'Name every journal that changed, or find out why a trace moved.'));
      return 2;
    }
    const next = [...entries];
    for (const d of differences) next[d.index] = { ...d.entry, ...d.now };
    writeTraceCorpus(next);
    console.log(`trace-hash corpus: re-recorded ${differences.length} of ${entries.length} scenarios, of ${[...new Set(differences.map((d) => d.entry.journal))].length} journals (${seconds} s)`);
    return 0;
  }
  for (const d of differences.slice(0, 20)) {
    console.log(`#${d.index} ${d.entry.journal} (${d.entry.modules}, ${d.entry.transport}) ${d.entry.source}: ${d.entry.traceEntries} entries, ${d.entry.outcome} → now ${d.now.traceEntries} entries, ${d.now.outcome}`);
  }
  console.log(`trace-hash corpus: ${differences.length} of ${entries.length} scenarios replay a different trace (${seconds} s)`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(5);
  },
);
