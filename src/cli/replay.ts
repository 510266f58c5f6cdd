/**
 * durasim replay / explain: re-run a saved scenario (no fast-check seed or path needed), print the
 * trace (replay) or the explained steps with the violating step marked (explain), and the verdict.
 */
import { readFileSync } from 'node:fs';
import { judge } from '../../model/judge.js';
import { describeViolation } from '../../model/violation.js';
import { parseScenarioText } from '../../simulator/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { formatTraceEntry } from '../../simulator/trace.js';
import { DurasimError } from '../failure.js';
import { explainText } from '../report/explain.js';
import { journalErrors, verdictOf, type RunReport } from '../report/runReport.js';
import { writeReports } from '../report/writeReports.js';
import { exitCodeOf } from './exitCodes.js';
import { loadJournal } from './loadJournal.js';

export interface ReplayOptions {
  file: string;
  journal?: string;
  mode: 'replay' | 'explain';
  reportDir?: string;
}

export async function runReplay(options: ReplayOptions, print: (line: string) => void): Promise<number> {
  let text: string;
  try {
    text = readFileSync(options.file, 'utf8');
  } catch (error) {
    throw new DurasimError('read the scenario', `${options.file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'Pass the path of a scenario file, e.g. a report dir’s counterexample.json');
  }
  const scenario = parseScenarioText(text);
  const { journal, spec } = await loadJournal(options.journal);
  const started = performance.now();
  const result = await simulate(journal, scenario);
  const again = await simulate(journal, scenario);
  const violations = judge(result);
  const { verdict, sandbox } = verdictOf(violations, result, again.traceHash !== result.traceHash);
  print(`replay of ${options.file} · journal ${journal.name} · trace ${result.traceHash.slice(0, 16)}`);
  if (options.mode === 'explain') print(explainText(result, violations));
  else {
    for (const entry of result.trace) print(formatTraceEntry(entry));
    print(violations.length === 0 ? 'verdict: no violation' : `verdict: ${violations.length} violation(s)`);
    for (const v of violations) print(`  ${describeViolation(v)}`);
  }
  if (sandbox) print(`sandbox: ${sandbox}`);
  for (const error of journalErrors(result)) print(`journal: ${error}`);
  const exitCode = exitCodeOf(verdict);
  if (options.reportDir) {
    const report: RunReport = { command: 'replay', journal: journal.name, journalSpec: spec, runsExecuted: 1, elapsedMs: performance.now() - started, verdict, exitCode, violations, counterexample: scenario, result };
    if (sandbox) report.sandbox = sandbox;
    print(`reports: ${Object.values(writeReports(options.reportDir, report)).join(', ')}`);
  }
  return exitCode;
}
