/**
 * durasim check: generated scenarios against a journal until the judge finds a violation (then
 * shrink), within a run budget and an optional time budget; stored regressions are replayed first.
 */
import fc from 'fast-check';
import { judge } from '../../model/judge.js';
import { describeViolation } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario.js';
import { simulate, type SimulationResult } from '../../simulator/simulate.js';
import { scenarioArbitrary, type FaultKind } from '../arbitraries.js';
import { loadRegressions, saveRegression } from '../regressions.js';
import { journalErrors, verdictOf, type RunReport } from '../report/runReport.js';
import { writeReports } from '../report/writeReports.js';
import { exitCodeOf } from './exitCodes.js';
import { loadJournal } from './loadJournal.js';
import { Progress } from './progress.js';

export interface CheckOptions {
  journal?: string;
  runs: number;
  seed: number;
  timeBudgetMs?: number;
  faults: FaultKind[];
  shard?: { index: number; count: number };
  reportDir: string;
  junit?: string;
  json: boolean;
  regressionsDir: string;
  progress: boolean;
}

const failed = (result: SimulationResult): boolean => result.escapes.length > 0 || judge(result).length > 0;

export async function runCheck(options: CheckOptions, print: (line: string) => void): Promise<number> {
  const { journal, spec } = await loadJournal(options.journal);
  const shardText = options.shard ? ` · shard ${options.shard.index}/${options.shard.count}` : '';
  const first = `seed ${options.seed} · faults ${options.faults.join(',')} (each run draws its own mix) · journal ${journal.name} · ${options.runs} runs${shardText}`;
  if (options.json) process.stderr.write(`${first}\n`);
  else print(first);
  const started = performance.now();

  let counterexample: Scenario | undefined;
  let runsExecuted = 0;
  let timeBudgetHit = false;
  for (const stored of loadRegressions(journal.name, options.regressionsDir)) {
    runsExecuted++;
    if (failed(await simulate(journal, stored.scenario))) {
      counterexample = stored.scenario;
      if (!options.json) print(`stored regression ${stored.file} fails again`);
      break;
    }
  }

  if (!counterexample) {
    const progress = new Progress(options.shard ? Math.ceil(options.runs / options.shard.count) : options.runs, process.stderr, options.progress && !options.json);
    let generated = 0;
    let found = false;
    const property = fc.asyncProperty(scenarioArbitrary({ faults: options.faults }), async (scenario) => {
      if (!found) {
        const mine = options.shard === undefined || generated % options.shard.count === options.shard.index - 1;
        generated++;
        if (!mine) return true;
        runsExecuted++;
      }
      const bad = failed(await simulate(journal, scenario));
      if (bad) found = true;
      if (!bad && !found) progress.update(runsExecuted, 0);
      return !bad;
    });
    const params: fc.Parameters<[Scenario]> = { numRuns: options.runs, seed: options.seed };
    if (options.timeBudgetMs !== undefined) {
      params.interruptAfterTimeLimit = options.timeBudgetMs;
      params.markInterruptAsFailure = false;
    }
    const details = await fc.check(property, params);
    progress.done();
    timeBudgetHit = details.interrupted;
    if (details.failed && details.counterexample) counterexample = details.counterexample[0];
  }

  const report: RunReport = {
    command: 'check',
    journal: journal.name,
    journalSpec: spec,
    seed: options.seed,
    faults: options.faults,
    runsPlanned: options.runs,
    runsExecuted,
    elapsedMs: 0,
    timeBudgetHit,
    verdict: 'clean',
    exitCode: 0,
    violations: [],
  };
  if (options.shard) report.shard = options.shard;
  if (counterexample) {
    const result = await simulate(journal, counterexample);
    const again = await simulate(journal, counterexample);
    const violations = judge(result);
    const { verdict, sandbox } = verdictOf(violations, result, again.traceHash !== result.traceHash);
    Object.assign(report, { counterexample, result, violations, verdict, exitCode: exitCodeOf(verdict) });
    if (sandbox) report.sandbox = sandbox;
    report.replayCommand = `npx durasim replay ${options.reportDir}/counterexample.json --journal ${spec}`;
    const saved = saveRegression(counterexample, { journal: journal.name, invariants: [...new Set(violations.map((v) => v.code))], seed: options.seed }, options.regressionsDir);
    report.regressionFile = saved.file;
  }
  report.elapsedMs = performance.now() - started;
  const files = writeReports(options.reportDir, report, options.junit);

  if (options.json) {
    print(JSON.stringify({ ...report, result: undefined, files }, null, 2));
    return report.exitCode;
  }
  const rate = report.runsExecuted / Math.max(0.001, report.elapsedMs / 1000);
  print(`${report.runsExecuted} runs in ${(report.elapsedMs / 1000).toFixed(2)} s (${rate.toFixed(0)}/s)${timeBudgetHit ? ', stopped by the time budget' : ''}: ${report.verdict}`);
  for (const v of report.violations) print(`  ${describeViolation(v)}`);
  if (report.sandbox) print(`  sandbox: ${report.sandbox}`);
  for (const error of report.result ? journalErrors(report.result) : []) print(`  journal: ${error}`);
  print(`reports: ${Object.values(files).join(', ')}`);
  if (report.regressionFile) print(`regression: ${report.regressionFile}`);
  if (report.replayCommand) print(`replay: ${report.replayCommand}`);
  return report.exitCode;
}
