/**
 * durasim replay / explain: re-run a saved scenario (no fast-check seed or path needed) in the
 * worker pool, twice (a journal that is nondeterministic is told so), print the trace (replay) or
 * the explained steps with the violating step marked (explain), and the verdict.
 */
import { formatTraceEntry } from '../../simulator/world/trace.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { explainText } from '../report/explain.js';
import { verdictOf, type RunReport } from '../report/runReport.js';
import { inspectProblemsMessage } from './inspectProblems.js';
import { writeReports } from '../report/writeReports.js';
import { confirmCounterexample } from '../runner/confirm.js';
import { WorkerPool } from '../pool/workerPool.js';
import { violationLines } from '../report/violationLines.js';
import { loadOrEscape, type PoolFlags } from './check.js';
import { EXIT, exitCodeOf } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { checkOutputFolder } from './preflight.js';
import { readScenarioFile } from './scenarioFile.js';

export interface ReplayOptions extends PoolFlags {
  file: string;
  journal?: string;
  mode: 'replay' | 'explain';
  reportDir?: string;
}

const wallMs = (): number => performance.now(); // the harness's clock, for the report only

export async function runReplay(options: ReplayOptions, print: (line: string) => void): Promise<number> {
  const scenario = readScenarioFile(options.file, 'Pass the path of a scenario file, e.g. a report dir’s counterexample.json');
  if (options.reportDir) checkOutputFolder(options.reportDir, '--report-dir');
  const ref = journalRefOf(options.journal);
  const pool = new WorkerPool({ ...options, workers: Math.min(2, options.workers ?? 2) });
  try {
    const loaded = await loadOrEscape(pool, ref, print, scenario.environment);
    if (typeof loaded === 'number') return loaded;
    const started = wallMs();
    const found = await pool.run(loaded.journalId, scenario);
    const confirmed = await confirmCounterexample(pool, loaded.journalId, scenario, found);
    if (confirmed.harness) return reportHarnessFailure(confirmed.harness.message, scenario, options.reportDir ?? 'durasim-report', print);
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
      for (const line of violationLines(violations)) print(`  ${line}`);
    }
    if (sandbox) print(`sandbox: ${sandbox}`);
    const exitCode = exitCodeOf(verdict);
    if (options.reportDir) {
      const report: RunReport = { command: 'replay', journal: loaded.name, journalSpec: ref.spec, runsExecuted: 1, elapsedMs: wallMs() - started, verdict, exitCode, violations, counterexample: scenario, journalErrors: summary.journalErrors };
      if (result) report.result = result;
      if (confirmed.faultFree) report.faultFree = confirmed.faultFree;
      if (sandbox) report.sandbox = sandbox;
      print(`reports: ${Object.values(writeReports(options.reportDir, report)).join(', ')}`);
    }
    return exitCode;
  } finally {
    await pool.close();
  }
}
