/**
 * A helper for users' own test suites:
 *
 *   test('exactly once', () => checkJournal(new URL('./my-journal.ts', import.meta.url), { runs: 500 }));
 *
 * Runs the journal as `durasim check` does — in worker threads, with a fresh instance of its
 * modules for every incarnation — so it takes the journal's module, not an object already loaded
 * in the test's thread. It reads durasim.config.json as check does (or the file `config` names);
 * an option given in code wins over the config's, as a flag does. Replays the journal's stored
 * regressions first (those in the task shape and of the fault families it draws, as check), then hunts with generated
 * scenarios; on a failure it saves the counterexample to the regression corpus and throws an error
 * that reads as the failure itself: the violations, the explained trace, and the command that
 * replays it. A clean check ends with check's four real restarts of the task (option realRestart).
 */
import { count } from './report/count.js';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeViolation } from '../model/violation.js';
import { defaultFaultKinds, DEFAULT_FAULT_KINDS, type Calls, type FaultKind, type OperationKind, type TaskFeature } from './arbitraries.js';
import { inShape } from './taskShape.js';
import { familiesOutside } from './faultFamilies.js';
import type { Scenario } from '../simulator/scenario/scenario.js';
import type { JournalAdapter } from '../model/contract/contract.js';
import { SEED_LIMIT } from './cli/args.js';
import { DurasimError } from '../model/contract/failure.js';
import { bundledJournal, journalRefOf, type JournalRef } from './isolation/journalRef.js';
import { MUTANTS } from './journals/mutants/index.js';
import { referenceJournal } from './journals/reference.js';
import { checkWorkers } from './pool/defaultWorkers.js';
import { WorkerPool } from './pool/workerPool.js';
import { loadRegressions, REGRESSIONS_DIR, saveRegression } from './regressions.js';
import { explainText } from './report/explain.js';
import { escapeWho } from './report/runReport.js';
import { confirmCounterexample, describeDivergence } from './runner/confirm.js';
import { hunt } from './runner/hunt.js';
import { inspectProblemsParts } from './cli/inspectProblems.js';
import { readTaskFile, settingsOf } from './cli/config.js';
import type { ServiceContract } from '../simulator/contract/contract.js';
import { parseContract } from '../simulator/contract/parseContract.js';
import { inputTask, parseInputSpec } from './inputTask.js';
import { realRestart } from './cli/realRestart.js';
import { sweepBase } from './runner/sweep.js';

export interface CheckJournalOptions {
  /**
   * The config to read, as `check --config` (default: durasim.config.json in the working folder, if
   * there is one). Its runs, seed, faults, operations, features, task and env are read as `check`
   * reads them; an option given here wins over the config's, as a flag does (the journal is the one
   * passed).
   */
  config?: string | undefined;
  runs?: number | undefined;
  seed?: number | undefined;
  faults?: readonly FaultKind[] | undefined;
  /** How the journal is called, as the config's "calls": 'one-at-a-time' leaves concurrent calls out of the default families. */
  calls?: Calls | undefined;
  /** The operation kinds the journal supports (default: all), as durasim.config.json's "operations". */
  operations?: readonly OperationKind[] | undefined;
  /** The task features a run may carry (default: all; [] for none), as the config's "features". */
  features?: readonly TaskFeature[] | undefined;
  /** The user's own task to vary: a scenario (parseScenarioText of a scenario-format file), as the config's "task". */
  task?: Scenario | undefined;
  /** Variables in the journal's process.env in every run and while its modules load, as the config's "env" (a name given here wins over the config's). */
  env?: Readonly<Record<string, string>> | undefined;
  /** The user's own API, as the config's "service" (docs/service-contract.md): a contract's JSON, e.g. { preset: 'payments', url: 'https://api.example.com' }. */
  service?: unknown;
  /** The task from the journal's own input file, as the config's "input" (src/inputTask.ts): { file, items, key, body }, its file relative to the working folder. */
  input?: unknown;
  /** Aim every other run after the first 100 at a fault window none had hit, as `check --guided` (docs/faults.md). */
  guided?: boolean | undefined;
  /** Where stored regressions live and new ones go (default reports/regressions). */
  regressionsDir?: string | undefined;
  /** Save a new counterexample to the corpus (default true). */
  saveRegressions?: boolean | undefined;
  /** How to name the journal in the replay command (default: the module path given). */
  journalSpec?: string | undefined;
  /** Worker threads (default: one per 50 runs, up to the machine's cores; a finding is shrunk on every core), memory limit and hang timeout, as for `durasim check`. */
  workers?: number | undefined;
  maxHeapMb?: number | undefined;
  hangTimeoutMs?: number | undefined;
  /**
   * End a clean check with the four real restarts `durasim check` ends with (default true): the task
   * with one crash, simulated, then run in real processes, where memory dies with the process. Real
   * processes breaking what the simulation did not fails the check (a sandbox verdict: something a
   * real crash forgets survived the simulated one), the scenario saved with `npx durasim confirm` as
   * its replay. false leaves them out: a pass is then the simulation's alone (README, known limits).
   */
  realRestart?: boolean | undefined;
}

/** A module path as one types it on a command line here: relative to the working folder. */
function asTyped(path: string): string {
  const typed = relative(process.cwd(), path);
  return isAbsolute(typed) || typed.startsWith('..') ? typed : `./${typed}`;
}

/** The journal's module: a path or file URL; durasim's own bundled journals may be passed as objects. */
function refOf(journal: string | URL | JournalAdapter): JournalRef {
  if (typeof journal === 'string') return journalRefOf(journal);
  if (journal instanceof URL) return journalRefOf(asTyped(fileURLToPath(journal)));
  const bundled = journal === referenceJournal || MUTANTS.some((m) => m.journal === journal) ? bundledJournal(journal.name) : undefined;
  if (bundled) return bundled;
  throw new DurasimError(
    'check the journal',
    `checkJournal was given the object of journal "${journal.name}", but it runs journals in worker threads with fresh modules per incarnation, so it needs the module`,
    "Pass the module instead: checkJournal(new URL('./my-journal.ts', import.meta.url))",
  );
}

/**
 * The options a check runs with: those given, else durasim.config.json's (or `config`'s), read
 * with the CLI's own reader (cli/config.ts), so both refuse a bad config in the same words.
 */
function withConfig(options: CheckJournalOptions): CheckJournalOptions & { loadEnvironment: Record<string, string>; contract: ServiceContract | undefined; allOperations: boolean } {
  const settings = settingsOf({ config: options.config, runs: options.runs, seed: options.seed, faults: options.faults, calls: options.calls, operations: options.operations, features: options.features, env: options.env });
  const input = options.input === undefined ? settings.input : parseInputSpec(options.input, (reason, fix) => new DurasimError('check the journal', `the option input ${reason}`, fix));
  const task = options.task ?? (settings.task !== undefined ? readTaskFile(settings.task, settings.operations) : input !== undefined ? inputTask(input, process.cwd()).scenario : undefined);
  const service = options.service === undefined ? settings.service : parseContract(options.service, 'service', (field, problem, fix) => {
    throw new DurasimError('check the journal', `the option ${field} ${problem}`, fix ?? 'Fix the service contract (docs/service-contract.md)');
  });
  return {
    ...options,
    runs: settings.runs,
    seed: settings.seed,
    faults: settings.faults ?? defaultFaultKinds(settings.calls),
    operations: settings.operations,
    features: settings.features,
    task,
    // The env (the config's, the options' over it) replaces the task's, as check's --env does; the modules load with the runs' environment.
    env: settings.env,
    loadEnvironment: settings.env ?? task?.environment ?? {},
    contract: service,
    allOperations: options.task === undefined && settings.task === undefined && input !== undefined,
  };
}

/**
 * A clean check's real restarts, as `durasim check` runs them (src/cli/realRestart.ts): a parting
 * throws, the scenario saved (unless saving is off) with confirm's command as its replay.
 */
async function restartForReal(pool: WorkerPool, loaded: { journalId: number; name: string }, ref: JournalRef, base: Scenario, options: CheckJournalOptions & { dir: string; seed: number }): Promise<void> {
  const restarted = await realRestart(pool, loaded.journalId, ref, base);
  if (!restarted.sandbox) return;
  const spec = options.journalSpec ?? ref.spec;
  const file = options.saveRegressions === false ? '(not saved)' : saveRegression(restarted.sandbox.scenario, { journal: loaded.name, module: spec, invariants: [], seed: options.seed }, options.dir).file;
  throw new Error([
    `durasim found a failure in journal "${loaded.name}" (seed ${options.seed}: clean when simulated, not after a real restart)`,
    `  sandbox: ${restarted.sandbox.why}`,
    ...restarted.confirmation.lines.map((line) => `  ${line}`),
    `replay: npx durasim confirm ${file} --journal ${spec}`,
  ].join('\n'));
}

export async function checkJournal(journal: string | URL | JournalAdapter, given: CheckJournalOptions = {}): Promise<void> {
  const ref = refOf(journal);
  if (given.seed !== undefined && !(Number.isSafeInteger(given.seed) && given.seed >= 0 && given.seed < SEED_LIMIT)) {
    throw new DurasimError('check the journal', `the seed must be a whole number from 0 to ${SEED_LIMIT - 1}, found ${given.seed}`, 'Pass the seed a failure printed, e.g. { seed: 42 }');
  }
  const options = withConfig(given);
  const dir = options.regressionsDir ?? REGRESSIONS_DIR;
  // allow-ambient: a fresh seed when none is given; it is printed in any failure.
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  const runs = options.runs ?? 200;
  const workers = checkWorkers(runs, options.workers);
  const pool = new WorkerPool({ ...options, workers: workers.search });
  try {
    const loaded = await pool.load(ref, options.loadEnvironment);
    if (loaded.loadEscapes.length > 0) throw new Error(`durasim found a failure in journal "${loaded.name}": its module, at load, ${loaded.loadEscapes[0]?.message} (${loaded.loadEscapes[0]?.api})`);
    const arbitrary = { faults: options.faults ?? DEFAULT_FAULT_KINDS, ...(options.operations ? { operations: options.operations } : {}), ...(options.features ? { features: options.features } : {}), ...(options.task ? { task: options.task } : {}), ...(options.env ? { environment: options.env } : {}), ...(options.contract ? { contract: options.contract } : {}), ...(options.allOperations ? { allOperations: true } : {}) };
    const hunted = await hunt({ pool, journalId: loaded.journalId, seed, runs, shrinkWorkers: workers.shrink, arbitrary, regressions: loadRegressions(loaded.name, dir).filter((r) => inShape(r.scenario, options) && familiesOutside(r.scenario, options.faults ?? DEFAULT_FAULT_KINDS).length === 0), ...(options.guided ? { guided: true } : {}), keepLookingPastLiveness: true });
    const finding = hunted.finding;
    if (!finding) {
      if (options.realRestart !== false) await restartForReal(pool, loaded, ref, sweepBase(arbitrary), { ...options, dir, seed });
      return;
    }
    const confirmed = await confirmCounterexample(pool, loaded.journalId, finding.scenario, finding.outcome);
    if (confirmed.harness || finding.verdict === 'harness') throw new Error(`durasim failed (not a finding about the journal): ${confirmed.harness?.message ?? (finding.outcome.kind === 'harness-error' ? finding.outcome.message : 'unknown')}`);
    // An inspect() answer the judge cannot read: the adapter's bug, said as one (never a finding).
    const problems = confirmed.summary.inspectProblems ?? [];
    if (finding.verdict === 'usage' && problems.length > 0) {
      const { action, reason, fix } = inspectProblemsParts(problems, undefined, undefined);
      throw new DurasimError(action, reason, fix);
    }
    const stored = 'regression' in finding.origin ? finding.origin.regression : undefined;
    const file = stored ?? (options.saveRegressions === false ? '(not saved)' : saveRegression(finding.scenario, { journal: loaded.name, module: options.journalSpec ?? ref.spec, invariants: [...new Set(confirmed.summary.violations.map((v) => v.code))], seed }, dir).file);
    const origin = stored ? `stored regression ${stored}` : `seed ${seed}, after ${count(hunted.runsExecuted, 'run')}, shrunk ${count(finding.shrink?.steps ?? 0, 'time')}`;
    const lines = [
      `durasim found a failure in journal "${loaded.name}" (${origin})`,
      ...confirmed.summary.journalErrors.map((e) => `  journal: ${e}`),
      ...confirmed.summary.violations.map((v) => `  ${describeViolation(v)}`),
      ...confirmed.summary.escapes.map((e) => `  sandbox: ${escapeWho(e)} ${e.message} (${e.api})`),
      ...(finding.divergence ? [`  sandbox: ${describeDivergence(finding.divergence)}`] : confirmed.sandbox ? [`  sandbox: ${confirmed.sandbox}`] : []),
      `replay: npx durasim replay ${file} --journal ${options.journalSpec ?? ref.spec}`,
    ];
    if (confirmed.result) lines.push('', explainText(confirmed.result, confirmed.summary.violations));
    throw new Error(lines.join('\n'));
  } finally {
    await pool.close();
  }
}
