/**
 * durasim check: the journal's stored regressions, then the seed's generated scenarios in the
 * worker pool until the first failure (shrunk) or the budget; the counterexample confirmed (run
 * twice), reported and saved to the regression corpus. Outputs are checked before the first run.
 */
import { describeViolation, INVARIANT_CODES, invariantKind, type InvariantCode } from '../../model/violation.js';
import { FAULT_KINDS, type FaultKind, type OperationKind, type ScenarioArbitraryOptions, type TaskFeature } from '../arbitraries.js';
import { outsideShape } from '../taskShape.js';
import { familiesOutside } from '../faultFamilies.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { loadOrEscape } from './loadOrEscape.js';
import { journalRefOf, type JournalRef } from '../isolation/journalRef.js';
import { checkWorkers } from '../pool/defaultWorkers.js';
import { WorkerPool, type PoolOptions } from '../pool/workerPool.js';
import { loadRegressions, saveRegression } from '../regressions.js';
import { verdictOf, type RunReport } from '../report/runReport.js';
import { count } from '../report/count.js';
import { coverageLine } from '../report/coverageLine.js';
import { violationLines } from '../report/violationLines.js';
import { boundLines } from '../report/boundHint.js';
import { astrayLine } from '../report/astrayLine.js';
import { perSecond } from '../report/perSecond.js';
import { escapeTally } from './escapeTally.js';
import { writeReports } from '../report/writeReports.js';
import { removeStaleReports } from '../report/reportFiles.js';
import { githubAnnotations } from '../report/githubAnnotations.js';
import { confirmCounterexample, describeDivergence } from '../runner/confirm.js';
import { hunt } from '../runner/hunt.js';
import { shrinkLine, tallyLines } from './checkLines.js';
import { PAIR_RUNS, sweepBase, SWEEP_RUNS } from '../runner/sweep.js';
import { realProcessesLine, realRestart } from './realRestart.js';
import { sweepLine } from '../report/sweepLine.js';
import { pairsLine } from '../report/pairsLine.js';
import { judgedViolations, summaryOf, type Judged } from '../runner/runVerdict.js';
import { confirmScenario, simulatedOf } from '../confirm/confirmScenario.js';
import { EXIT, exitCodeOf } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { checkOutputFile, checkOutputFolder } from './preflight.js';
import { Progress } from './progress.js';
import { endLine } from './endLine.js';
import { reportInspectProblems } from './inspectProblems.js';
import { withBounds, type BoundsOption } from './boundsOption.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';
import { Interrupt } from './interrupt.js';
import { interruptedLine } from '../report/markdown.js';

export { loadOrEscape };

/** The pool's flags: --workers, --max-heap, --hang-timeout. */
export type PoolFlags = Pick<PoolOptions, 'workers' | 'maxHeapMb' | 'hangTimeoutMs'>;

export interface CheckOptions extends PoolFlags {
  journal?: string;
  runs: number;
  seed: number;
  timeBudgetMs?: number;
  faults: FaultKind[];
  /** Whence the families, when not all are drawn (--faults, the config's "faults" or "calls"): the first line says it with the families left out. */
  faultsFrom?: string;
  shard?: { index: number; count: number };
  reportDir: string;
  junit?: string;
  /** Print each run's console output (stdout and stderr entries) as the run comes back. */
  verbose?: boolean;
  json: boolean;
  regressionsDir: string;
  progress: boolean;
  /** Judge only these invariants (--invariants). */
  invariants?: InvariantCode[];
  /** Ignore liveness (--safety-only). */
  safetyOnly?: boolean;
  /** Aim every other run after the first 100 at a fault window no run has hit yet (--guided). */
  guided?: boolean;
  /** Judge every single-fault state of the task's fault-free run before the drawn runs (--sweep: runner/sweep.ts). */
  sweep?: boolean;
  /** The sweep's bound in runs (--sweep-runs; default SWEEP_RUNS): a long fault-free run has many crash points. */
  sweepRuns?: number;
  /** After the sweep, the two-fault pairs kept by dependency in explore --depth 2's order (default with the sweep; --no-pairs: runner/sweep.ts). */
  pairs?: boolean;
  /** The pairs' bound in runs (--pair-runs; default PAIR_RUNS). */
  pairRuns?: number;
  /** Run the whole budget and count failing runs per invariant (--tally). */
  tally?: boolean;
  /** Run the first counterexample in real processes too, and say whether it happens there (--confirm); on a clean check, a real restart of the task. */
  confirm?: boolean;
  /** On a clean check, restart the task for real (the command's default, off with --no-real-restart): memory kept where the restore does not reach dies there (src/runner/realRestart.ts). */
  realRestart?: boolean;
  /** The journal's environment in every generated scenario (--env NAME=VALUE), saved with each counterexample. */
  environment?: Record<string, string>;
  /** The config file the options came from, if any (durasim.config.json or --config). */
  configFile?: string;
  /** The operation kinds the journal supports (--operations; default: all). */
  operations?: OperationKind[];
  /** The task features a run may carry (--features; default: all). */
  features?: TaskFeature[];
  /** The user's own task to vary (--task): its file and the scenario read from it. */
  task?: { file: string; scenario: Scenario };
  /** Bounds for every run, generated or stored (--max-steps and its siblings, the config's "bounds"). */
  bounds?: BoundsOption;
  /** The user's own API, from the config's "service": every generated run's service speaks it. */
  contract?: ServiceContract;
  /** Every run holds every operation of the task (a task from the journal's own input: its file lists them all). */
  allOperations?: boolean;
  /** What stops the check early (default: SIGINT and SIGTERM on this process, listened for while it runs; see interrupt.ts). */
  interrupt?: Interrupt;
}

/** The generator's options of a check: its families, the task shape, the environment. */
export function arbitraryOptions(options: Pick<CheckOptions, 'faults' | 'environment' | 'operations' | 'features' | 'task' | 'bounds' | 'contract' | 'allOperations'>): ScenarioArbitraryOptions {
  return {
    faults: options.faults,
    ...(options.allOperations ? { allOperations: true } : {}),
    ...(options.contract ? { contract: options.contract } : {}),
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.operations ? { operations: options.operations } : {}),
    ...(options.features ? { features: options.features } : {}),
    ...(options.task ? { task: options.task.scenario } : {}),
  };
}

/** The first line's words for the families left out, if any: which, and why (every family is drawn unless something says otherwise). */
export function leftOutText(options: Pick<CheckOptions, 'faults' | 'faultsFrom'>): string {
  const out = FAULT_KINDS.filter((kind) => !options.faults.includes(kind));
  return out.length === 0 ? '' : ` · left out: ${out.join(', ')} (${options.faultsFrom ?? 'not named'})`;
}

/** The first line's words for the task shape: what is narrowed from the defaults, and whence. */
export function shapeText(options: Pick<CheckOptions, 'configFile' | 'operations' | 'features' | 'task'>): string {
  return [
    options.task ? ` · task ${options.task.file}` : '',
    options.operations ? ` · operations ${options.operations.join(',')}` : '',
    options.features ? ` · features ${options.features.length > 0 ? options.features.join(',') : 'none'}` : '',
    options.configFile ? ` · config ${options.configFile}` : '',
  ].join('');
}

/** The invariants judged: --invariants, less convergence under --safety-only; undefined for all. */
export function judgedCodes(options: Pick<CheckOptions, 'invariants' | 'safetyOnly'>): Judged {
  if (options.invariants === undefined && !options.safetyOnly) return undefined;
  return (options.invariants ?? INVARIANT_CODES).filter((code) => !options.safetyOnly || invariantKind(code) === 'safety');
}

/** What check says of the stored regressions it does not replay: outside the task shape (a count), of families it does not draw (each file, up to ten). */
export function skippedLines(skipped: NonNullable<RunReport['regressionsSkipped']>, options: Pick<CheckOptions, 'faults' | 'configFile' | 'operations' | 'features' | 'task'>): string[] {
  const shape = skipped.filter((s) => s.reason === 'shape');
  const families = skipped.filter((s) => s.reason === 'faults');
  const shown = 10;
  return [
    ...(shape.length > 0 ? [`${count(shape.length, 'stored regression')} outside the task shape (${shapeText(options).replace(/^ · /, '')}) not replayed`] : []),
    ...(families.length > 0 ? [`${count(families.length, 'stored regression')} of fault families this run does not draw (faults ${options.faults.join(',')}) skipped:`] : []),
    ...families.slice(0, shown).map((s) => `  skipped: ${s.file} (${s.outside.join(', ')})`),
    ...(families.length > shown ? [`  … and ${families.length - shown} more (summary.json lists them: regressionsSkipped)`] : []),
  ];
}

/** The worst of several exit codes: durasim's failure, then an escape, a safety violation, liveness. */
const SEVERITY: readonly number[] = [EXIT.clean, EXIT.liveness, EXIT.safety, EXIT.sandbox, EXIT.harness];
const worst = (codes: readonly number[]): number => codes.reduce<number>((a, b) => (SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a), EXIT.clean);

const wallMs = (): number => performance.now(); // the harness's clock, for the report only

/** What was found, cause first: the sandbox breach, then what the journal itself reported (a run() that threw), then the violations. */
export function findingLines(report: RunReport): string[] {
  return [
    ...(report.sandbox ? [`sandbox: ${report.sandbox}${escapeTally(report.result?.escapes ?? [])}`] : []),
    ...(report.journalErrors ?? []).map((error) => `journal: ${error}`),
    ...violationLines(report.violations),
    ...boundLines(report.violations),
  ];
}

/** A run's console line for --verbose: which run (`run 12`, `regression <file>`), then the trace line (its continuation lines kept under it). */
export function verboseLine(run: string, line: string): string {
  const prefix = `${run} │ `;
  return `${prefix}${line.replaceAll('\n', `\n${' '.repeat(prefix.length)}`)}`;
}

/** The first screen's second line: which invariants every run is judged against. */
export function checkedLine(judged: Judged): string {
  const codes = judged ?? INVARIANT_CODES;
  const parts = (['safety', 'liveness'] as const).flatMap((kind) => {
    const ofKind = codes.filter((code) => invariantKind(code) === kind);
    return ofKind.length === 0 ? [] : [`${kind} ${ofKind.join(', ')}`];
  });
  return `judged by ${judged === undefined ? 'all ' : ''}${count(codes.length, 'invariant')}: ${parts.join(' · ')} (docs/invariants.md)`;
}

/** This process's CPU so far, every thread (the harness's own accounting, never simulated). */
const cpuMsSoFar = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs check; `print` takes text lines, `printJson` (with --json) the one JSON document of the outcome. */
export async function runCheck(options: CheckOptions, print: (line: string) => void, printJson: (doc: object) => void = (doc) => print(JSON.stringify(doc, null, 2))): Promise<number> {
  checkOutputFolder(options.reportDir, '--report-dir');
  checkOutputFolder(options.regressionsDir, '--regressions');
  if (options.junit !== undefined) checkOutputFile(options.junit, '--junit');
  const ref = journalRefOf(options.journal);
  // The first SIGINT or SIGTERM stops the runs and keeps the work; the second exits at once.
  const interrupt = options.interrupt ?? new Interrupt().install();
  try {
    return await checkUntilStopped(options, ref, interrupt, print, printJson);
  } finally {
    if (options.interrupt === undefined) interrupt.uninstall();
  }
}

async function checkUntilStopped(options: CheckOptions, ref: JournalRef, interrupt: Interrupt, print: (line: string) => void, printJson: (doc: object) => void): Promise<number> {
  // This shard's share of the runs; without --workers it sets how many search (a finding is shrunk on every core).
  const shareOfRuns = options.shard ? Math.ceil(options.runs / options.shard.count) : options.runs;
  // The sweep's runs (hundreds, known only once the fault-free run is seen) count as a thousand more for the default workers.
  const workers = checkWorkers(options.sweep ? shareOfRuns + 1000 : shareOfRuns, options.workers);
  const pool = new WorkerPool({ ...options, workers: workers.search });
  try {
    // The generated runs' environment: --env (and the config's), else the task's own.
    const loaded = await loadOrEscape(pool, ref, print, options.environment ?? options.task?.scenario.environment);
    if (typeof loaded === 'number') {
      removeStaleReports(options.reportDir, []); // it wrote no report: none of an earlier run's may read as this one's
      return loaded;
    }
    const judged = judgedCodes(options);
    const pairsOn = options.sweep === true && options.pairs !== false;
    const shardText = options.shard ? ` · shard ${options.shard.index}/${options.shard.count}` : '';
    const freshText = loaded.freshModules ? ' (it reads the world as it loads: what it keeps is renewed at every incarnation, as every module is)' : '';
    const envText = options.environment ? ` · env ${Object.keys(options.environment).join(', ')}` : '';
    const serviceText = options.contract ? ` · service ${options.contract.url} (its contract${options.contract.preset ? `, from the ${options.contract.preset} preset` : ''})` : '';
    const first = `seed ${options.seed} · faults ${options.faults.join(',')} (each run draws its own mix)${leftOutText(options)} · journal ${loaded.name}${freshText}${envText}${serviceText}${shapeText(options)} · ${count(options.runs, 'run')}${shardText}${options.tally ? ' · tally' : ''}${options.sweep ? (pairsOn ? ' · single-fault sweep and two-fault pairs first' : ' · single-fault sweep first · no two-fault pairs') : ' · no single-fault sweep'} · ${count(pool.size, 'worker')}`;
    for (const line of [first, checkedLine(judged)]) {
      if (options.json) process.stderr.write(`${line}\n`);
      else print(line);
    }
    const started = wallMs();
    // With --shard i/n, each shard replays its own share of the stored regressions (every n-th, from the i-th), so together they replay each once.
    const shard = options.shard;
    // A stored regression outside the task shape (an operation kind or a feature it leaves out), or using a fault
    // family this run does not draw (one the config or --faults no longer names), is not replayed, and said so.
    const skipped: NonNullable<RunReport['regressionsSkipped']> = [];
    const allStored = loadRegressions(loaded.name, options.regressionsDir).filter((r) => {
      const shape = outsideShape(r.scenario, options);
      const families = familiesOutside(r.scenario, options.faults);
      if (shape.length > 0) skipped.push({ file: r.file, reason: 'shape', outside: shape });
      else if (families.length > 0) skipped.push({ file: r.file, reason: 'faults', outside: families });
      return shape.length === 0 && families.length === 0;
    });
    if (!options.json) for (const line of skippedLines(skipped, options)) print(line);
    const regressions = (shard ? allStored.filter((_, i) => i % shard.count === shard.index - 1) : allStored).map((r) => ({ ...r, scenario: withBounds(r.scenario, options.bounds) }));
    const progress = new Progress(shareOfRuns, process.stderr, options.progress && !options.json);
    let cpuMsBeforeFirstRun: number | undefined;
    const hunted = await hunt({
      pool,
      journalId: loaded.journalId,
      seed: options.seed,
      runs: options.runs,
      arbitrary: arbitraryOptions(options),
      regressions,
      onProgress: (done, failing) => {
        cpuMsBeforeFirstRun ??= cpuMsSoFar();
        progress.update(done, failing);
      },
      onShrink: (shrinking) => progress.shrinking(shrinking),
      ...(options.verbose ? { onOutput: (run: string, lines: readonly string[]) => lines.forEach((line) => progress.line(verboseLine(run, line))) } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
      ...(judged ? { judged } : {}),
      ...(options.tally ? { tally: true } : {}),
      ...(options.guided ? { guided: true } : {}),
      ...(options.sweep ? { sweep: { base: withBounds(sweepBase(arbitraryOptions(options)), options.bounds), families: options.faults, ...(options.features ? { features: options.features } : {}), maxRuns: options.sweepRuns ?? SWEEP_RUNS, onProgress: (runs: number, states: number, points?: { explored: number; of: number }) => { if (points) progress.sweeping(runs, states, points); }, ...(pairsOn ? { pairs: { maxRuns: options.pairRuns ?? PAIR_RUNS, onProgress: (runs: number, tried: number, kept: number) => progress.pairing(runs, tried, kept, options.pairRuns ?? PAIR_RUNS) } } : {}) } } : {}),
      keepLookingPastLiveness: true,
      shrinkWorkers: workers.shrink,
      stop: () => interrupt.requested,
    });
    progress.done();
    // A liveness finding found before a safety one is kept beside it (hunt's keepLookingPastLiveness): the safety one leads.
    const findings = hunted.tally ? hunted.tally.findings : hunted.finding ? [hunted.finding, ...(hunted.alsoLiveness ? [hunted.alsoLiveness] : [])] : [];
    if (regressions.length > 0 && !options.json) print(`${regressions.length} stored regression${regressions.length === 1 ? '' : 's'} replayed first`);
    for (const finding of findings) if ('regression' in finding.origin && !options.json) print(`stored regression ${finding.origin.regression} fails again`);
    if (hunted.sweep && !options.json) print(sweepLine(hunted.sweep, options.shard));
    if (hunted.sweep?.pairs && !options.json) print(pairsLine(hunted.sweep.pairs));
    for (const finding of findings) if ('sweep' in finding.origin && !options.json) print(`found by the single-fault sweep: ${finding.origin.sweep}`);
    for (const finding of findings) if ('pair' in finding.origin && !options.json) print(`found by the two-fault pairs: ${finding.origin.pair}`);

    const report: RunReport = {
      command: 'check',
      journal: loaded.name,
      journalSpec: ref.spec,
      seed: options.seed,
      faults: options.faults,
      ...(options.operations || options.features || options.task || options.configFile
        ? { shape: { ...(options.operations ? { operations: options.operations } : {}), ...(options.features ? { features: options.features } : {}), ...(options.task ? { task: options.task.file } : {}), ...(options.configFile ? { config: options.configFile } : {}) } }
        : {}),
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
    if (skipped.length > 0) report.regressionsSkipped = skipped;
    if (judged) report.invariantsJudged = [...judged];
    if (hunted.tally) report.tally = hunted.tally.counts;
    const exits: number[] = [];
    for (const [i, finding] of findings.entries()) {
      if (finding.verdict === 'harness' && finding.outcome.kind === 'harness-error') return reportHarnessFailure(finding.outcome.message, finding.scenario, options.reportDir, print, true);
      if (finding.verdict === 'usage') {
        const where = 'regression' in finding.origin ? `the stored regression ${finding.origin.regression}` : 'sweep' in finding.origin ? `the single-fault sweep (${finding.origin.sweep})` : 'pair' in finding.origin ? `the two-fault pairs (${finding.origin.pair})` : `run ${finding.origin.index} of seed ${options.seed}`;
        return reportInspectProblems(summaryOf(finding.outcome)?.inspectProblems ?? [], finding.scenario, where, { name: loaded.name, module: ref.spec }, options.reportDir, print);
      }
      const confirmed = await confirmCounterexample(pool, loaded.journalId, finding.scenario, finding.outcome);
      if (confirmed.harness) return reportHarnessFailure(confirmed.harness.message, finding.scenario, options.reportDir, print, true);
      const difference = finding.divergence ? describeDivergence(finding.divergence) : (confirmed.sandbox ?? false);
      const violations = judgedViolations(confirmed.summary.violations, judged);
      const { verdict, sandbox } = verdictOf(violations, confirmed.summary, difference);
      const regressionFile = 'regression' in finding.origin
        ? finding.origin.regression
        : saveRegression(finding.scenario, { journal: loaded.name, module: ref.spec, invariants: [...new Set(violations.map((v) => v.code))], seed: options.seed }, options.regressionsDir).file;
      // The replay command names the regression file: the report folder is overwritten by the next check.
      const replayCommand = `npx durasim replay ${regressionFile} --journal ${ref.spec}`;
      exits.push(exitCodeOf(verdict));
      if (finding.invariant !== undefined) {
        (report.counterexamples ??= []).push({ invariant: finding.invariant, verdict, violations: violations.map(describeViolation), regressionFile, replayCommand, faults: finding.scenario.faults.length, ...(finding.notShrunk ? { notShrunk: finding.notShrunk } : {}) });
      }
      if (i > 0 && !hunted.tally) report.also = { verdict, violations: violationLines(violations), regressionFile, replayCommand, run: 'index' in finding.origin ? finding.origin.index : undefined };
      if (i > 0) continue; // the reports show the first counterexample in full; the others are in the regression corpus
      Object.assign(report, { counterexample: finding.scenario, violations, verdict, journalErrors: confirmed.summary.journalErrors, replayCommand, regressionFile });
      if (confirmed.result) report.result = confirmed.result;
      if (confirmed.faultFree) report.faultFree = confirmed.faultFree;
      if (sandbox) report.sandbox = sandbox;
      if (finding.shrink) report.shrink = finding.shrink;
      if (finding.notShrunk) report.notShrunk = finding.notShrunk;
      if (options.confirm && confirmed.result && interrupt.requested) report.confirmation = { verdict: 'not run', lines: ['not run: the check was interrupted'] };
      else if (options.confirm && confirmed.result) {
        const { verdict: realVerdict, lines, calls } = await confirmScenario(ref, finding.scenario, simulatedOf(confirmed.result, violations));
        // A signal during the real run ends it cut short (its workers killed): what it found then says nothing.
        report.confirmation = interrupt.requested ? { verdict: 'not run to its end', lines: ['not run to its end: the check was interrupted', ...lines] } : { verdict: realVerdict, lines, ...(calls ? { calls } : {}) };
      }
    }
    // A clean verdict, cross-checked by a real restart (the command's default; --confirm too): memory a simulated crash kept shows as the worlds parting.
    if (findings.length === 0 && (options.realRestart === true || options.confirm === true) && !interrupt.requested) {
      const parted = await realRestart(pool, loaded.journalId, ref, withBounds(sweepBase(arbitraryOptions(options)), options.bounds));
      report.confirmation = parted.confirmation;
      if (parted.sandbox && !interrupt.requested) {
        const regressionFile = saveRegression(parted.sandbox.scenario, { journal: loaded.name, module: ref.spec, invariants: [], seed: options.seed }, options.regressionsDir).file;
        Object.assign(report, { counterexample: parted.sandbox.scenario, verdict: 'sandbox', sandbox: parted.sandbox.why, regressionFile, replayCommand: `npx durasim confirm ${regressionFile} --journal ${ref.spec}` }, parted.sandbox.result ? { result: parted.sandbox.result } : {});
        exits.push(EXIT.sandbox);
      }
    }
    report.exitCode = worst(exits);
    if (interrupt.signal !== undefined) {
      report.interrupted = { afterRuns: hunted.runsExecuted - hunted.storedReplayed, ofRuns: shareOfRuns, signal: interrupt.signal };
      report.exitCode = interrupt.exitCode as number;
    }
    report.elapsedMs = wallMs() - started;
    if (hunted.work) report.work = hunted.work;
    if (hunted.coverage) report.coverage = hunted.coverage;
    if (hunted.sweep) report.sweep = hunted.sweep;
    report.cost = { cpuMs: cpuMsSoFar(), ...(cpuMsBeforeFirstRun !== undefined ? { cpuMsBeforeFirstRun } : {}), wallMs: wallMs() };
    const files = writeReports(options.reportDir, report, options.junit);
    if (options.json) {
      printJson({ ...report, result: undefined, files });
      return report.exitCode;
    }
    // Stored regressions are counted apart from the seed's generated runs (the budget is the generated runs').
    const stored = Math.min(regressions.length, report.runsExecuted);
    const runs = stored === 0 ? count(report.runsExecuted, 'run') : `${count(report.runsExecuted - stored, 'generated run')} and ${count(stored, 'stored regression')}`;
    print(`${runs} in ${(report.elapsedMs / 1000).toFixed(2)} s (${perSecond(report.runsExecuted, report.elapsedMs / 1000)})${hunted.timeBudgetHit ? ', stopped by the time budget' : ''}; re-run ${hunted.determinismChecks} for determinism: ${report.verdict}`);
    const astray = astrayLine(report.work);
    if (astray) print(astray);
    if (report.interrupted) print(`${interruptedLine(report.interrupted)}: the verdict is of the runs made`);
    if (report.coverage) print(coverageLine(report.coverage));
    if (report.tally) for (const line of tallyLines(report)) print(`  ${line}`);
    else for (const line of findingLines(report)) print(`  ${line}`);
    if (report.notShrunk) print(`  not shrunk: ${report.notShrunk}`);
    else if (report.shrink && !report.tally) print(`  ${shrinkLine(report.shrink, report.result?.scenario.faults.length)}`);
    if (report.also) {
      print(`also found, in an earlier run${report.also.run === undefined ? '' : ` (run ${report.also.run})`}: ${report.also.verdict} — the ${report.verdict} finding above outranks it`);
      for (const line of report.also.violations) print(`  ${line}`);
      print(`  replay: ${report.also.replayCommand}`);
    }
    if (report.confirmation) print(realProcessesLine(report.confirmation));
    print(`reports: ${Object.values(files).join(', ')}`);
    if (report.regressionFile && !report.tally) print(`regression: ${report.regressionFile}`);
    if (report.replayCommand && !report.tally) print(`replay: ${report.replayCommand}`);
    if (report.verdict === 'clean' && !report.interrupted) {
      const other = (options.seed + 1) % 2_147_483_647;
      print(`next: npx durasim explore --journal ${ref.spec} (a crash at every step) · npx durasim check --journal ${ref.spec} --seed ${other} --runs ${options.runs * 10} (a wider search)`);
    }
    print(endLine(report));
    if (process.env.GITHUB_ACTIONS === 'true') for (const line of githubAnnotations(report)) print(line);
    return report.exitCode;
  } finally {
    await pool.close();
  }
}
