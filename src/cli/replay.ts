/**
 * durasim replay / explain: re-run a saved scenario (no fast-check seed or path needed) in the
 * worker pool, twice (a journal that is nondeterministic is told so), print the trace (replay) or
 * the explained steps with the violating step marked (explain), and the verdict.
 */
import { formatTraceEntry } from '../../simulator/world/trace.js';
import { explainText } from '../report/explain.js';
import { verdictOf, type RunReport } from '../report/runReport.js';
import { inspectProblemsMessage } from './inspectProblems.js';
import { writeReports } from '../report/writeReports.js';
import { removeStaleReports } from '../report/reportFiles.js';
import { confirmCounterexample } from '../runner/confirm.js';
import { WorkerPool } from '../pool/workerPool.js';
import { violationLines } from '../report/violationLines.js';
import { boundLines } from '../report/boundHint.js';
import { loadOrEscape, type PoolFlags } from './check.js';
import { EXIT, exitCodeOf } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { checkOutputFolder } from './preflight.js';
import { readFindingFile } from './scenarioFile.js';
import { chooseFindingJournal, journalWarning } from './findingJournal.js';
import { withBounds, type BoundsOption } from './boundsOption.js';
import { withConfigContract } from './configContract.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';

export interface ReplayOptions extends PoolFlags {
  file: string;
  /** --journal. */
  journal?: string;
  /** The config's journal (durasim.config.json or --config) and its file: used when no --journal is given. */
  configJournal?: string;
  configFile?: string;
  /** The config's service contract: the scenario's when it names none (configContract.ts). */
  configContract?: ServiceContract;
  mode: 'replay' | 'explain';
  reportDir?: string;
  /** Bounds over the scenario's (--max-steps and its siblings). */
  bounds?: BoundsOption;
}

const wallMs = (): number => performance.now(); // the harness's clock, for the report only

export async function runReplay(options: ReplayOptions, print: (line: string) => void): Promise<number> {
  const found = readFindingFile(options.file, 'Pass the path of a scenario file, e.g. a report dir’s counterexample.json');
  const { recorded } = found;
  const spoken = withConfigContract(withBounds(found.scenario, options.bounds), options.configContract, options.configFile);
  const scenario = spoken.scenario;
  if (options.reportDir) checkOutputFolder(options.reportDir, '--report-dir');
  const choice = chooseFindingJournal(options.file, recorded, { flag: options.journal, config: options.configJournal, configFile: options.configFile });
  const ref = choice.ref;
  for (const line of choice.lines) print(line);
  if (spoken.line) print(spoken.line);
  const pool = new WorkerPool({ ...options, workers: Math.min(2, options.workers ?? 2) });
  try {
    const loaded = await loadOrEscape(pool, ref, print, scenario.environment);
    if (typeof loaded === 'number') {
      if (options.reportDir) removeStaleReports(options.reportDir, []); // it wrote no report: none of an earlier run's may read as this one's
      return loaded;
    }
    // Said before anything else of the run, so no verdict below reads as the recorded journal's.
    const warning = journalWarning(options.file, choice, loaded.name);
    if (warning) print(warning);
    const started = wallMs();
    const found = await pool.run(loaded.journalId, scenario);
    const confirmed = await confirmCounterexample(pool, loaded.journalId, scenario, found);
    if (confirmed.harness) return reportHarnessFailure(confirmed.harness.message, scenario, options.reportDir ?? 'durasim-report', print, options.reportDir !== undefined);
    const { summary, result } = confirmed;
    // An answer of inspect() the judge cannot read is the adapter's bad input: said as such, never judged.
    if (summary.inspectProblems && summary.inspectProblems.length > 0) {
      print(inspectProblemsMessage(summary.inspectProblems, `the run of ${options.file}`, undefined));
      return EXIT.usage;
    }
    const violations = summary.violations;
    const { verdict, sandbox } = verdictOf(violations, summary, confirmed.sandbox ?? false);
    print(`replay of ${options.file} · journal ${loaded.name}${result ? ` · trace ${result.traceHash.slice(0, 16)}` : ''}`);
    for (const error of summary.journalErrors) print(`journal: ${error}`);
    if (result && options.mode === 'explain') print(explainText(result, violations));
    else {
      for (const entry of result?.trace ?? []) print(formatTraceEntry(entry));
      if (summary.outcome.kind !== 'completed' && !result) print(`outcome: ${summary.outcome.kind} (${summary.outcome.detail})`);
      print(violations.length === 0 ? 'verdict: no violation' : `verdict: ${violations.length} violation(s)`);
      for (const line of [...violationLines(violations), ...boundLines(violations)]) print(`  ${line}`);
    }
    if (sandbox) print(`sandbox: ${sandbox}`);
    const exitCode = exitCodeOf(verdict);
    if (options.reportDir) {
      const report: RunReport = { command: 'replay', journal: loaded.name, journalSpec: ref.spec, runsExecuted: 1, elapsedMs: wallMs() - started, verdict, exitCode, violations, counterexample: scenario, journalErrors: summary.journalErrors };
      if (result) report.result = result;
      if (confirmed.faultFree) report.faultFree = confirmed.faultFree;
      if (sandbox) report.sandbox = sandbox;
      if (warning) report.warnings = [warning];
      print(`reports: ${Object.values(writeReports(options.reportDir, report)).join(', ')}`);
    }
    return exitCode;
  } finally {
    await pool.close();
  }
}
