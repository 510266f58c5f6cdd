/**
 * npm run mutants: hunts every mutant of the corpus with the property suite (fixed seeds, a
 * budget of at most 5,000 runs each), saves each shrunk counterexample as a scenario file, and
 * writes the kill table to reports/mutants.md and reports/mutants.json; exits 1 when the corpus
 * misses what properties/mutants.test.ts demands of it (mutantProblems). CI runs it whole; the
 * suite hunts every twelfth mutant.
 * Usage: npm run mutants [-- --runs N] [--out DIR] [--workers N]
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseScenarioText, type Scenario } from '../simulator/scenario/scenario.js';
import { simulate, type SimulationResult } from '../simulator/simulate.js';
import { bundleJournal } from './isolation/bundleJournal.js';
import { compileJournal } from './isolation/journalInstances.js';
import { makeDirDurably, writeFileDurably } from './durableFile.js';
import { findingText } from './findingJson.js';
import { bundledJournal } from './isolation/journalRef.js';
import { MUTANTS, mutantArbitrary } from './journals/mutants/index.js';
import { huntJournal, type HuntResult } from './mutation.js';
import { ownModule, PACKAGE_ROOT } from './ownFiles.js';
import { WorkerPool } from './pool/workerPool.js';

export const MUTANT_BUDGET = 5000;
export const mutantSeed = (index: number): number => 1000 + index;

/** Whether a shrunk counterexample is close to the hand-minimal one: at most one fault more, at most 10% more steps. */
export function closeToMinimal(r: { faults?: number; steps?: number; handFaults: number; handSteps: number }): boolean {
  return r.faults !== undefined && r.steps !== undefined && r.faults <= r.handFaults + 1 && r.steps <= Math.ceil(r.handSteps * 1.1);
}

export function killTable(rows: (HuntResult & { defect: string; expected: string[]; handFaults: number; handSteps: number })[]): string {
  const fmt = (n: number | undefined): string => (n === undefined ? '—' : n.toFixed(0));
  const lines = [
    '| mutant | defect | killed | invariant that fired | runs to first failure | ms to it | shrink ms | counterexample faults / steps | hand-minimal faults / steps |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      `| \`${r.journal}\` | ${r.defect} | ${r.killed ? 'yes' : '**survived**'} | ${r.invariants?.map((c) => `\`${c}\``).join(', ') ?? '—'} | ${fmt(r.runsToFailure)} | ${fmt(r.msToFailure)} | ${fmt(r.shrinkMs)} | ${fmt(r.faults)} / ${fmt(r.steps)}${closeToMinimal(r) ? '' : ' **(far)**'} | ${r.handFaults} / ${r.handSteps} |`),
  ];
  const runs = rows.flatMap((r) => (r.runsToFailure === undefined ? [] : [r.runsToFailure])).sort((a, b) => a - b);
  const median = runs.length === 0 ? undefined : runs[Math.floor((runs.length - 1) / 2)];
  lines.push(
    '',
    `Killed ${rows.filter((r) => r.killed).length} of ${rows.length}. Runs to detection: median ${fmt(median)}, worst ${fmt(runs.at(-1))}. ` +
      `Shrunk within one fault and 10% of the steps of the hand-minimal scenario: ${rows.filter(closeToMinimal).length} of ${rows.length}.`,
  );
  return lines.join('\n');
}

/** The hand-minimal scenario of a mutant (reports/mutants/minimal/), and its faults and steps. */
/**
 * A bundled journal's scenario simulated as `check` runs it: every incarnation of every worker a
 * fresh instance of its modules, as a process is (two workers never share a module's memory — or
 * its in-process lock).
 */
export async function simulateAsProcesses(name: string, scenario: Scenario): Promise<SimulationResult> {
  return (await simulatorOf(name))(scenario);
}

/**
 * The same, bundled and compiled once for many scenarios (as a worker thread of check compiles a
 * journal once and takes a fresh instance per incarnation): what a shrink of one mutant calls.
 */
export async function simulatorOf(name: string): Promise<(scenario: Scenario) => Promise<SimulationResult>> {
  const ref = bundledJournal(name);
  if (ref === undefined) throw new Error(`no bundled journal named ${name}`);
  const instances = await compileJournal(await bundleJournal(ref), ownModule('src/index'));
  return (scenario) => simulate(instances.fresh(), scenario, { fresh: instances.fresh });
}

export async function handMinimal(name: string): Promise<{ handFaults: number; handSteps: number }> {
  const scenario = parseScenarioText(readFileSync(join(PACKAGE_ROOT, 'reports', 'mutants', 'minimal', `${name}.json`), 'utf8'));
  return { handFaults: scenario.faults.length, handSteps: (await simulateAsProcesses(name, scenario)).stats.steps };
}

export interface MutantsOptions {
  /** Runs per mutant (default MUTANT_BUDGET). */
  runs?: number | undefined;
  /** The folder the kill table and counterexamples go to (default reports). */
  out?: string | undefined;
  workers?: number | undefined;
}

export async function runMutants(options: MutantsOptions = {}): Promise<number> {
  const budget = options.runs ?? MUTANT_BUDGET;
  const out = options.out ?? 'reports';
  const pool = new WorkerPool(options.workers !== undefined ? { workers: options.workers } : {});
  console.log(`seeds ${mutantSeed(0)}..${mutantSeed(MUTANTS.length - 1)} · all fault families, swarm · budget ${budget} runs per mutant · ${pool.size} workers`);
  makeDirDurably(join(out, 'mutants', 'counterexamples'));
  const rows = [];
  const runsOf = new Map<string, number | undefined>();
  try {
    for (const [i, mutant] of MUTANTS.entries()) {
      const ref = bundledJournal(mutant.journal.name);
      if (!ref) throw new Error(`the mutant ${mutant.journal.name} has no module`);
      const result = await huntJournal(pool, ref, { numRuns: budget, seed: mutantSeed(i), ...mutantArbitrary(mutant) });
      const row = { ...result, defect: mutant.defect, expected: mutant.breaks, ...(await handMinimal(mutant.journal.name)) };
      rows.push(row);
      runsOf.set(mutant.journal.name, result.runsToFailure);
      console.log(`${mutant.journal.name.padEnd(26)} ${result.killed ? `killed by ${result.invariants?.join(', ')} after ${result.runsToFailure} runs (${result.msToFailure?.toFixed(0)} ms), shrunk to ${result.faults} fault(s), ${result.steps} steps` : 'SURVIVED'}`);
      if (result.counterexample) {
        const file = join(out, 'mutants', 'counterexamples', `${mutant.journal.name}.json`);
        writeFileDurably(file, findingText(result.counterexample, { name: mutant.journal.name, module: mutant.journal.name }, { name: `shrunk counterexample: ${mutant.journal.name}`, description: result.violations?.join('\n') }));
      }
    }
  } finally {
    await pool.close();
  }
  const table = killTable(rows);
  const rare = MUTANTS.filter((m) => m.rareWindow !== undefined).map((m) => `- \`${m.journal.name}\` (${runsOf.get(m.journal.name) ?? '—'} runs): needs ${m.rareWindow}; held to its budget, left out of the median and worst the test bounds.`);
  const notes = rare.length === 0 ? '' : `\n\nRare windows:\n\n${rare.join('\n')}`;
  writeFileDurably(join(out, 'mutants.md'), `# Mutant kill table\n\nEach mutant is the reference journal with one realistic defect (src/journals/mutants/). Generated by \`npm run mutants\`: fixed seeds, at most ${budget} runs each; the shrunk counterexamples are in mutants/counterexamples/, the hand-minimal scenarios in mutants/minimal/. Times are from one run on a shared 2-core machine. These are the drawn runs alone, at one seed each; what a default \`check\` does with this corpus and with the blind one — the single-fault sweep first, then the drawn runs, at seeds 1-3, the sweep's runs and the drawn runs apart — is reports/detection.md (\`node properties/detection/measure.mjs\`).\n\n${table}${notes}\n`);
  const json = rows.map(({ counterexample: _c, ...rest }) => rest);
  writeFileDurably(join(out, 'mutants.json'), `${JSON.stringify({ budget, mutants: json }, null, 2)}\n`);
  console.log(`\n${table}`);
  const problems = mutantProblems(rows.map((r, i) => ({ ...r, name: MUTANTS[i]?.journal.name ?? '?', aimed: MUTANTS[i]?.rareWindow === undefined })));
  for (const problem of problems) console.log(`FAILED: ${problem}`);
  return problems.length > 0 ? 1 : 0;
}

/**
 * What the mutant gate demands, as properties/mutants.test.ts does: every mutant killed, by an
 * invariant its defect breaks, shrunk close to the hand-minimal scenario; over the aimed-at
 * mutants, at most 20 runs to detection at the median and 200 at worst. Each failure, said.
 */
export function mutantProblems(rows: readonly { name: string; aimed: boolean; killed: boolean; invariants?: string[] | undefined; expected: readonly string[]; runsToFailure?: number | undefined; faults?: number | undefined; steps?: number | undefined; handFaults: number; handSteps: number }[]): string[] {
  const problems: string[] = [];
  for (const r of rows) {
    if (!r.killed) problems.push(`${r.name} survived`);
    else if (!r.expected.some((code) => r.invariants?.includes(code))) problems.push(`${r.name} was killed by ${r.invariants?.join(', ')}, none of the invariants its defect breaks (${r.expected.join(', ')})`);
    else if (!closeToMinimal(r)) problems.push(`${r.name} shrank to ${r.faults} faults / ${r.steps} steps, far from its hand-minimal ${r.handFaults} / ${r.handSteps}`);
  }
  const runs = rows.filter((r) => r.aimed).map((r) => r.runsToFailure ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const median = runs[Math.floor((runs.length - 1) / 2)];
  if (median !== undefined && median > 20) problems.push(`the median runs to detection is ${median}, over 20`);
  const worst = runs.at(-1);
  if (worst !== undefined && worst > 200) problems.push(`the worst runs to detection is ${worst}, over 200`);
  return problems;
}

