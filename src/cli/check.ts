/**
 * durasim check: the journal's stored regressions, then the seed's generated scenarios in the
 * worker pool until the first failure (shrunk) or the budget; the counterexample confirmed (run
 * twice), reported and saved to the regression corpus. Outputs are checked before the first run.
 */
import { describeViolation } from '../../model/violation.js';
import type { Escape } from '../../simulator/ambientGuard.js';
import type { FaultKind } from '../arbitraries.js';
import { DurasimError } from '../failure.js';
import { journalRefOf, type JournalRef } from '../isolation/journalRef.js';
import { WorkerPool, type LoadedJournal, type PoolOptions } from '../pool/workerPool.js';
import { loadRegressions, saveRegression } from '../regressions.js';
import { verdictOf, type RunReport } from '../report/runReport.js';
import { writeReports } from '../report/writeReports.js';
import { confirmCounterexample, describeDivergence } from '../runner/confirm.js';
import { hunt } from '../runner/hunt.js';
import { EXIT, exitCodeOf } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { checkOutputFile, checkOutputFolder } from './preflight.js';
import { Progress } from './progress.js';

/** The pool's flags: --workers, --max-heap, --hang-timeout. */
export type PoolFlags = Pick<PoolOptions, 'workers' | 'maxHeapMb' | 'hangTimeoutMs'>;

export interface CheckOptions extends PoolFlags {
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

const wallMs = (): number => performance.now(); // the harness's clock, for the report only

/** What was found, cause first: the sandbox breach, then what the journal itself reported (a run() that threw), then the violations. */
export function findingLines(report: RunReport): string[] {
  const escapes = report.result?.escapes ?? [];
  const more = new Set(escapes.slice(1).map((e) => e.api));
  return [
    ...(report.sandbox ? [`sandbox: ${report.sandbox}${escapes.length > 1 ? ` (and ${escapes.length - 1} more escape${escapes.length === 2 ? '' : 's'}: ${[...more].join(', ')})` : ''}`] : []),
    ...(report.journalErrors ?? []).map((error) => `journal: ${error}`),
    ...report.violations.map(describeViolation),
  ];
}

function loadEscapeLine(escapes: readonly Escape[]): string {
  const first = escapes[0] as Escape;
  return `the journal's module, at load: ${first.message} (${first.api})`;
}

/** Loads the journal in the pool; a module whose own top level escapes the sandbox is exit 4, said so. */
export async function loadOrEscape(pool: WorkerPool, ref: JournalRef, print: (line: string) => void): Promise<LoadedJournal | number> {
  let loaded: LoadedJournal;
  try {
    loaded = await pool.load(ref);
  } catch (error) {
    const escapes = (error as { escapes?: Escape[] }).escapes;
    if (!(error instanceof DurasimError) || !escapes || escapes.length === 0) throw error;
    print(`sandbox: ${loadEscapeLine(escapes)}`);
    return EXIT.sandbox;
  }
  if (loaded.loadEscapes.length === 0) return loaded;
  print(`sandbox: ${loadEscapeLine(loaded.loadEscapes)}`);
  return EXIT.sandbox;
}

export async function runCheck(options: CheckOptions, print: (line: string) => void): Promise<number> {
  checkOutputFolder(options.reportDir, '--report-dir');
  checkOutputFolder(options.regressionsDir, '--regressions');
  if (options.junit !== undefined) checkOutputFile(options.junit, '--junit');
  const ref = journalRefOf(options.journal);
  const pool = new WorkerPool(options);
  try {
    const loaded = await loadOrEscape(pool, ref, print);
    if (typeof loaded === 'number') return loaded;
    const shardText = options.shard ? ` · shard ${options.shard.index}/${options.shard.count}` : '';
    const first = `seed ${options.seed} · faults ${options.faults.join(',')} (each run draws its own mix) · journal ${loaded.name} · ${options.runs} runs${shardText} · ${pool.size} worker${pool.size === 1 ? '' : 's'}`;
    if (options.json) process.stderr.write(`${first}\n`);
    else print(first);
    const started = wallMs();
    const regressions = loadRegressions(loaded.name, options.regressionsDir);
    const progress = new Progress(options.shard ? Math.ceil(options.runs / options.shard.count) : options.runs, process.stderr, options.progress && !options.json);
    const hunted = await hunt({
      pool,
      journalId: loaded.journalId,
      seed: options.seed,
      runs: options.runs,
      arbitrary: { faults: options.faults },
      regressions,
      onProgress: (done) => progress.update(done, 0),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
    });
    progress.done();
    const finding = hunted.finding;
    if (finding && 'regression' in finding.origin && !options.json) print(`stored regression ${finding.origin.regression} fails again`);

    const report: RunReport = {
      command: 'check',
      journal: loaded.name,
      journalSpec: ref.spec,
      seed: options.seed,
      faults: options.faults,
      runsPlanned: options.runs,
      runsExecuted: hunted.runsExecuted,
      elapsedMs: 0,
      timeBudgetHit: hunted.timeBudgetHit,
      verdict: 'clean',
      exitCode: EXIT.clean,
      violations: [],
      workers: pool.size,
      determinismChecks: hunted.determinismChecks,
      independenceChecks: hunted.independenceChecks,
    };
    if (options.shard) report.shard = options.shard;
    if (finding) {
      if (finding.verdict === 'harness' && finding.outcome.kind === 'harness-error') return reportHarnessFailure(finding.outcome.message, finding.scenario, options.reportDir, print);
      const confirmed = await confirmCounterexample(pool, loaded.journalId, finding.scenario, finding.outcome);
      if (confirmed.harness) return reportHarnessFailure(confirmed.harness.message, finding.scenario, options.reportDir, print);
      const difference = finding.divergence ? describeDivergence(finding.divergence) : (confirmed.sandbox ?? false);
      const { verdict, sandbox } = verdictOf(confirmed.summary.violations, confirmed.summary, difference);
      Object.assign(report, { counterexample: finding.scenario, violations: confirmed.summary.violations, verdict, exitCode: exitCodeOf(verdict), journalErrors: confirmed.summary.journalErrors });
      if (confirmed.result) report.result = confirmed.result;
      if (sandbox) report.sandbox = sandbox;
      if (finding.shrink) report.shrink = finding.shrink;
      if (finding.notShrunk) report.notShrunk = finding.notShrunk;
      report.replayCommand = `npx durasim replay ${options.reportDir}/counterexample.json --journal ${ref.spec}`;
      if ('regression' in finding.origin) report.regressionFile = finding.origin.regression;
      else report.regressionFile = saveRegression(finding.scenario, { journal: loaded.name, invariants: [...new Set(confirmed.summary.violations.map((v) => v.code))], seed: options.seed }, options.regressionsDir).file;
    }
    report.elapsedMs = wallMs() - started;
    const files = writeReports(options.reportDir, report, options.junit);
    if (options.json) {
      print(JSON.stringify({ ...report, result: undefined, files }, null, 2));
      return report.exitCode;
    }
    const rate = report.runsExecuted / Math.max(0.001, report.elapsedMs / 1000);
    print(`${report.runsExecuted} runs in ${(report.elapsedMs / 1000).toFixed(2)} s (${rate.toFixed(0)}/s)${hunted.timeBudgetHit ? ', stopped by the time budget' : ''}; re-run ${hunted.determinismChecks} for determinism, ${hunted.independenceChecks} with fresh modules: ${report.verdict}`);
    for (const line of findingLines(report)) print(`  ${line}`);
    if (report.notShrunk) print(`  not shrunk: ${report.notShrunk}`);
    print(`reports: ${Object.values(files).join(', ')}`);
    if (report.regressionFile) print(`regression: ${report.regressionFile}`);
    if (report.replayCommand) print(`replay: ${report.replayCommand}`);
    return report.exitCode;
  } finally {
    await pool.close();
  }
}
