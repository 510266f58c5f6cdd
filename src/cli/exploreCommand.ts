/**
 * durasim explore: bounded-exhaustive exploration of one base scenario (default: the standard
 * workload with every task feature, no faults: arbitraries.featuredScenario) — every crash state and every fault of the asked families at every
 * step (runner/crashExplorer.ts) — with the fault-window coverage table printed and written to
 * the report folder (coverage.md, coverage.json), and each step kind's first counterexample per
 * invariant saved as a regression scenario, like check's. Exit codes as check's.
 */
import { join } from 'node:path';
import { invariantKind, type Violation } from '../../model/violation.js';
import type { Fault } from '../../simulator/scenario/scenario.js';
import { featuredScenario, DEFAULT_FAULT_KINDS, FAULT_KINDS, type FaultKind, type ScenarioArbitraryOptions } from '../arbitraries.js';
import { shapedScenario } from '../taskShape.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { makeDirDurably, writeFileDurably } from '../durableFile.js';
import { removeStaleReports } from '../report/reportFiles.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { saveRegression } from '../regressions.js';
import { count } from '../report/count.js';
import { perSecond } from '../report/perSecond.js';
import { describeFault } from '../report/explain.js';
import { exploreCrashes, type CrashExploration, type CoverageRow, type PairCount } from '../runner/crashExplorer.js';
import { violationLines } from '../report/violationLines.js';
import { loadOrEscape, type PoolFlags } from './check.js';
import { EXIT } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { reportInspectProblems } from './inspectProblems.js';
import { checkOutputFolder } from './preflight.js';
import { Interrupt } from './interrupt.js';
import { readScenarioFile } from './scenarioFile.js';
import { withBounds, type BoundsOption } from './boundsOption.js';
import { realProcessesLine, realRestart } from './realRestart.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';

export interface ExploreOptions extends PoolFlags {
  file?: string;
  /** The task from the journal's own input file (the config's "input": src/inputTask.ts), the base when no scenario file is named. */
  task?: { file: string; scenario: Scenario };
  /** The task shape (durasim.config.json, --operations, --features): the default base narrowed to it. */
  shape?: Pick<ScenarioArbitraryOptions, 'operations' | 'features'>;
  journal?: string;
  depth: 1 | 2;
  /** Depth 2: every pair rather than those dependency keeps (--all-pairs). */
  allPairs?: boolean;
  maxRuns?: number;
  /** The fault families tried at every point (default: all, as check's). */
  faults?: readonly FaultKind[];
  /** The journal's environment (--env, the config's env): the base scenario's, as check's replaces its task's; in process.env while its modules load. */
  environment?: Record<string, string>;
  reportDir: string;
  regressionsDir: string;
  progress: boolean;
  /** Bounds over the base scenario's (--max-steps and its siblings, the config's "bounds"). */
  bounds?: BoundsOption;
  /** The user's own API (the config's "service"): the base scenario's service speaks it. */
  contract?: ServiceContract;
  /** What stops the exploration early (default: SIGINT and SIGTERM on this process, listened for while it runs; see interrupt.ts). */
  interrupt?: Interrupt;
  /** On a clean verdict, restart the base's task for real, as check does (src/cli/realRestart.ts): the command's default, off with --no-real-restart. */
  realRestart?: boolean;
}

const wallMs = (): number => performance.now(); // the harness's clock, for progress and the report only
/** The CPU this process has used, every thread (the pool's workers too), in ms: reported, never simulated. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export async function runExplore(options: ExploreOptions, print: (line: string) => void): Promise<number> {
  const read = options.file !== undefined ? readScenarioFile(options.file, 'Pass the path of a scenario file, or none for the standard workload') : options.task !== undefined ? options.task.scenario : shapedScenario(featuredScenario(), options.shape ?? {});
  const baseName = options.file ?? (options.task !== undefined ? `the task of ${options.task.file} (the config's "input"), no faults` : undefined);
  const spoken = options.contract ? { ...read, service: { ...read.service, contract: options.contract } } : read;
  const base = withBounds(options.environment ? { ...spoken, environment: { ...options.environment } } : spoken, options.bounds);
  checkOutputFolder(options.reportDir, '--report-dir');
  checkOutputFolder(options.regressionsDir, '--regressions');
  const ref = journalRefOf(options.journal);
  // The first SIGINT or SIGTERM ends the exploration after the batch under way, with what it judged reported; the second exits at once.
  const interrupt = options.interrupt ?? new Interrupt().install();
  const pool = new WorkerPool(options);
  try {
    const loaded = await loadOrEscape(pool, ref, print, base.environment);
    if (typeof loaded === 'number') {
      removeStaleReports(options.reportDir, []); // it wrote no report: none of an earlier run's may read as this one's
      return loaded;
    }
    print(`explore · journal ${loaded.name} · base ${baseName ?? (options.shape?.operations || options.shape?.features ? 'the standard workload in the task shape, no faults' : 'the standard workload with every task feature, no faults')} · depth ${options.depth} · ${count(pool.size, 'worker')}`);
    const started = wallMs();
    const cpuStarted = cpuMs();
    let pairsStarted: { wall: number; cpu: number } | undefined;
    // A first line once the first batch is judged (the exploration is under way), then one every 5 s.
    let lastProgressMs: number | undefined;
    const exploration = await exploreCrashes({
      pool,
      journalId: loaded.journalId,
      base,
      depth: options.depth,
      families: options.faults ?? DEFAULT_FAULT_KINDS,
      ...(options.shape?.features ? { features: options.shape.features } : {}),
      ...(options.maxRuns !== undefined ? { maxRuns: options.maxRuns } : {}),
      ...(options.allPairs ? { allPairs: true } : {}),
      onPairs: () => {
        pairsStarted = { wall: wallMs(), cpu: cpuMs() };
      },
      stop: () => interrupt.requested,
      onProgress: (runs, states, failing) => {
        if (!options.progress || (lastProgressMs !== undefined && wallMs() - lastProgressMs < 5000)) return;
        lastProgressMs = wallMs();
        process.stderr.write(`progress: ${count(runs, 'run')}, ${count(states, 'state')}, ${failing} failing (${perSecond(runs, (lastProgressMs - started) / 1000)})\n`);
      },
    });
    const elapsedS = (wallMs() - started) / 1000;
    const cpuS = (cpuMs() - cpuStarted) / 1000;
    const pairsCost = pairsStarted && { elapsedS: (wallMs() - pairsStarted.wall) / 1000, cpuS: (cpuMs() - pairsStarted.cpu) / 1000 };
    if (exploration.harnessError) return reportHarnessFailure(exploration.harnessError, base, options.reportDir, print, true);
    if (exploration.inspectProblems) return reportInspectProblems(exploration.inspectProblems.problems, exploration.inspectProblems.scenario, exploration.inspectProblems.scenario === base ? 'the base run' : 'an explored run', { name: loaded.name, module: ref.spec }, options.reportDir, print);
    if (exploration.baseViolations.length > 0) {
      const file = options.file ?? saveRegression(base, { journal: loaded.name, module: ref.spec, invariants: [...new Set(exploration.baseViolations.map((v) => v.code))] }, options.regressionsDir).file;
      print('the base scenario itself fails, before any crash is added:');
      for (const line of violationLines(exploration.baseViolations)) print(`  ${line}`);
      print(`Fix that first: npx durasim explain ${file} --journal ${ref.spec}`);
      removeStaleReports(options.reportDir, []); // no coverage was measured: an earlier run's must not read as this one's
      return exitFor(exploration.baseViolations, false);
    }
    const table = coverageTable(exploration.rows);
    print(`${count(exploration.rows.reduce((n, r) => n + r.points, 0), 'crash point')} at depth 1, ${count(exploration.states, 'distinct state')} judged (crash states and faults of ${count((options.faults ?? DEFAULT_FAULT_KINDS).length, 'family', 'families')}), ${count(exploration.runs, 'run')} in ${elapsedS.toFixed(1)} s (${cpuS.toFixed(1)} s CPU)${exploration.cutShort ? ` — cut short at --max-runs ${options.maxRuns}` : ''}`);
    if (exploration.pairs) print(pairsLine(exploration.pairs, pairsCost ?? { elapsedS: 0, cpuS: 0 }));
    const interrupted = interrupt.signal !== undefined ? { afterRuns: exploration.runs, signal: interrupt.signal } : undefined;
    if (interrupted) print(`interrupted after ${count(interrupted.afterRuns, 'run')} (${interrupted.signal}): the table and the verdict are of the states judged`);
    for (const line of table) print(line);
    const violations = exploration.findings.flatMap((f) => f.violations);
    const saved = exploration.findings.map((finding) => ({
      finding,
      file: saveRegression(finding.scenario, { journal: loaded.name, module: ref.spec, invariants: [...new Set(finding.violations.map((v) => v.code))] }, options.regressionsDir).file,
    }));
    const shown = 5;
    for (const { finding, file } of saved.slice(0, shown)) {
      print(`${describeFault(finding.scenario.faults.at(-1) as Fault)}${finding.note ? `, ${finding.note}` : ''} (${finding.family}, at a ${finding.kind} step):`);
      for (const line of violationLines(finding.violations).slice(0, 3)) print(`  ${line}`);
      print(`  replay: npx durasim replay ${file} --journal ${ref.spec}`);
    }
    if (saved.length > shown) print(`${count(saved.length - shown, 'more counterexample')} saved under ${options.regressionsDir} (listed in coverage.json)`);
    if (exploration.escapes.length > 0) print(`sandbox: ${exploration.escapes[0]}`);
    // A clean verdict, cross-checked by real restarts of the base's task (as check's): memory a simulated crash kept shows as the worlds parting.
    const clean = saved.length === 0 && exploration.escapes.length === 0 && !interrupted;
    const restarted = clean && options.realRestart === true && interrupt.signal === undefined ? await realRestart(pool, loaded.journalId, ref, base) : undefined;
    const parted = restarted?.sandbox && interrupt.signal === undefined ? { ...restarted.sandbox, file: saveRegression(restarted.sandbox.scenario, { journal: loaded.name, module: ref.spec, invariants: [] }, options.regressionsDir).file } : undefined;
    if (parted) {
      print(`sandbox: ${parted.why}`);
      print(`  replay: npx durasim confirm ${parted.file} --journal ${ref.spec}`);
    } else if (clean) print(`verdict: clean — no crash state or fault broke an invariant${options.depth === 1 ? '; try --depth 2 for pairs of faults' : ''}`);
    if (restarted) print(realProcessesLine(restarted.confirmation));
    makeDirDurably(options.reportDir);
    // Every report file of an earlier run goes first (a check's summary.json and counterexample.json too); coverage.json, the record, lands last.
    removeStaleReports(options.reportDir, []);
    const json = { command: 'explore', journal: loaded.name, base: options.file ?? options.task?.file ?? 'standard', depth: options.depth, faults: options.faults ?? DEFAULT_FAULT_KINDS, runs: exploration.runs, states: exploration.states, cutShort: exploration.cutShort, ...(interrupted ? { interrupted } : {}), elapsedMs: Math.round(elapsedS * 1000), cpuMs: Math.round(cpuS * 1000), ...(exploration.pairs ? { pairs: { ...exploration.pairs, elapsedMs: Math.round((pairsCost?.elapsedS ?? 0) * 1000), cpuMs: Math.round((pairsCost?.cpuS ?? 0) * 1000) } } : {}), rows: exploration.rows, counterexamples: [...saved.map((s) => s.file), ...(parted ? [parted.file] : [])], ...(restarted ? { realRestart: { verdict: parted ? 'sandbox' : restarted.confirmation.verdict, lines: restarted.confirmation.lines } } : {}) };
    writeFileDurably(join(options.reportDir, 'coverage.md'), `# Fault-window coverage: ${loaded.name}, depth ${options.depth}\n\n${table.join('\n')}\n`);
    writeFileDurably(join(options.reportDir, 'coverage.json'), `${JSON.stringify(json, null, 2)}\n`);
    print(`reports: ${join(options.reportDir, 'coverage.md')}, ${join(options.reportDir, 'coverage.json')}`);
    return interrupt.exitCode ?? exitFor(violations, exploration.escapes.length > 0 || parted !== undefined);
  } finally {
    await pool.close();
    if (options.interrupt === undefined) interrupt.uninstall();
  }
}

/**
 * Depth 2's line: how many pairs dependency kept of how many (per the closest thing both steps
 * touch), or that every pair was tried; how many were tried, in how many runs, seconds and CPU
 * seconds; and the run the first failing pair came at.
 */
export function pairsLine(pairs: PairCount, cost: { elapsedS: number; cpuS: number }): string {
  const of = `${pairs.partial ? 'at least ' : ''}${pairs.total}`;
  const kinds = `same key ${pairs.byKind.key}, file ${pairs.byKind.file}, store entry ${pairs.byKind.store}, lease ${pairs.byKind.lease}`;
  const which = pairs.all ? `pairs: all ${of} (dependency would keep ${pairs.kept}: ${kinds})` : `pairs by dependency: ${pairs.kept} kept of ${of} (${kinds}; --all-pairs for every one)`;
  const first = pairs.firstFailingRun !== undefined ? `; the first failing pair at run ${pairs.firstFailingRun}` : '';
  return `${which}, ${pairs.tried} tried in ${count(pairs.runs, 'run')}, ${cost.elapsedS.toFixed(1)} s (${cost.cpuS.toFixed(1)} s CPU)${first}`;
}

function exitFor(violations: readonly Violation[], sandbox: boolean): number {
  if (sandbox) return EXIT.sandbox;
  if (violations.some((v) => invariantKind(v.code) === 'safety')) return EXIT.safety;
  return violations.length > 0 ? EXIT.liveness : EXIT.clean;
}

/**
 * The coverage table as aligned text (a Markdown table as well): per step kind, its crash points,
 * the distinct states judged there, how many failed, then per fault family tried, failing/tried.
 */
export function coverageTable(rows: readonly CoverageRow[]): string[] {
  const families = FAULT_KINDS.filter((family) => rows.some((r) => r.families[family] !== undefined));
  const tally = (r: Pick<CoverageRow, 'families'>, family: FaultKind): string => {
    const t = r.families[family];
    return t === undefined ? '—' : `${t.failing}/${t.tried}`;
  };
  const cells = rows.map((r) => [r.kind, String(r.points), String(r.states), String(r.failing), ...families.map((f) => tally(r, f)), Object.entries(r.codes).map(([code, n]) => `${code} ${n}`).join(', ') || '—']);
  const header = ['step kind', 'crash points', 'states', 'failing', ...families, 'invariants broken (states)'];
  const sum = (family: FaultKind): Pick<CoverageRow, 'families'> => ({
    families: { [family]: rows.reduce((t, r) => ({ tried: t.tried + (r.families[family]?.tried ?? 0), failing: t.failing + (r.families[family]?.failing ?? 0) }), { tried: 0, failing: 0 }) },
  });
  const totals = ['all', ...[1, 2, 3].map((i) => String(cells.reduce((n, c) => n + Number(c[i]), 0))), ...families.map((f) => tally(sum(f), f)), ''];
  const all = [header, ...cells, totals];
  const widths = header.map((_, i) => Math.max(...all.map((c) => (c[i] ?? '').length)));
  const numeric = (i: number): boolean => i >= 1 && i < header.length - 1;
  const line = (c: string[]): string => `| ${c.map((text, i) => (numeric(i) ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (numeric(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...cells.map(line), line(totals)];
}

export type { CrashExploration };
