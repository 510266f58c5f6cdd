/**
 * The durasim command line. Exit codes: 0 clean; 1 safety violation; 2 bad usage or bad input;
 * 3 liveness (bounds ran out, or the journal blocked or ran out of memory); 4 nondeterminism or a
 * sandbox escape by the journal under test; 5 durasim itself failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invariantKind, type InvariantCode } from '../../model/violation.js';
import { DurasimError } from '../../model/contract/failure.js';
import { defaultFaultKinds, FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES, type FaultKind } from '../arbitraries.js';
import { readTaskFile, settingsOf } from './config.js';
import { runMutants } from '../mutantsMain.js';
import { mergedLine } from './merge.js';
import { PACKAGE_ROOT } from '../ownFiles.js';
import { REGRESSIONS_DIR } from '../regressions.js';
import { parseArgs, usageError } from './args.js';
import { closestName } from './closestName.js';
import { colourEnabled, colourLine } from './colour.js';
import { runCheck, type PoolFlags } from './check.js';
import { EXIT } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { OwnFailure } from '../ownFailure.js';
import { mergeSummaries } from './merge.js';
import { runReplay } from './replay.js';
import { runConfirm } from './confirmCommand.js';
import { runExplore } from './exploreCommand.js';
import { BOUND_FLAG_KINDS, boundsOf } from './boundsOption.js';
import { inputTask } from '../inputTask.js';
import { runRegressions } from './regressionsCommand.js';

export const HELP = `durasim — deterministic simulation testing for operation journals

usage:
  durasim check   [--journal <module>] [--runs N] [--seed S] [--time-budget 60s]
                  [--faults ${FAULT_KINDS.join(',')}]
                  [--operations ${OPERATION_KINDS.join(',')}] [--features ${TASK_FEATURES.join(',')}|none]
                  [--task <scenario.json>] [--config <durasim.config.json>]
                  [--shard i/n] [--report-dir <dir>] [--junit <file>] [--json] [--regressions <dir>]
                  [--workers N] [--max-heap MB] [--hang-timeout 5s]
                  [--tally] [--invariants a,b] [--safety-only] [--confirm] [--env NAME=VALUE]... [--verbose]
                  [--guided] [--no-sweep] [--sweep-runs N] [--no-pairs] [--pair-runs N]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim replay  <scenario.json> [--journal <module>] [--config <file>] [--report-dir <dir>] [--max-heap MB] [--hang-timeout 5s]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim explain <scenario.json> [--journal <module>] [--config <file>] [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim confirm <scenario.json> [--journal <module>] [--config <file>] [--wall-limit 60s] [--calls]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim explore [scenario.json] [--journal <module>] [--depth 1|2] [--all-pairs] [--max-runs N]
                  [--faults ${FAULT_KINDS.join(',')}] [--operations …] [--features …] [--config <file>]
                  [--env NAME=VALUE]... [--report-dir <dir>] [--regressions <dir>] [--workers N]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim regressions [list|prune] [--regressions <dir>] [--journal <name|module>] [--family a,b]
                  [--older-than 30d] [--dry-run]
  durasim mutants [--runs N] [--out <dir>] [--workers N]
  durasim merge   <summary.json>...

--journal takes a module whose default export (or export "journal", or its one adapter export) is
a JournalAdapter (.ts loads as is), or a bundled journal: "reference" (the default) or a mutant's name.
check reads durasim.config.json in the working folder (or --config): the task shape — the
operation kinds the journal supports (--operations), the task features in play (--features: token,
budget, cancel, input, temp, or none), the fault families (--faults), your own task to vary
(--task, a scenario file) — and journal, runs, seed, env, bounds, and "service": the API your
worker speaks, a preset (ietf, payments, client-token) and what differs from it
(docs/service-contract.md); flags override it (docs/faults.md).
check and explore record in counterexample.json and every regression file the journal it was found
with (its adapter's name and the module as --journal took it). replay, explain and confirm run
--journal, else the config's journal, else the recorded module (or bundled name); a file that
records none runs the reference, said on its own line. A recorded module that is gone is exit 2;
a journal of another name than the recorded one runs after a "warning:" line (in summary.json too).
Runs go to worker threads (--workers, default: one per 50 runs, up to the machine's cores, and
every core to shrink a finding); a journal that holds its thread for --hang-timeout (default 5s,
of the thread's own CPU time) or holds more than --max-heap (default 512 MB) ends that run as a
liveness failure.
A run owns its --report-dir: the report files an earlier run left there that it does not write
(counterexample.json and timeline.html after a clean run, explore's coverage after a check, and the
other way round) are removed before its summary lands; no other file there is touched.
check replays the journal's stored regressions (--regressions, default reports/regressions) first;
one outside the task shape, or of a fault family the run does not draw, is skipped and listed.
regressions list shows each stored regression (file, journal, invariants, fault families, age: from
the date saved, or the file's time for files saved before durasim recorded it); regressions prune
deletes those --journal, --family (any of them) and --older-than (30d, 12h) choose, at least one
filter, and prints each; --dry-run only says what it would delete.
check stops at the first failing run — but a run that only fails to finish (liveness) does not
stop it: it goes on looking for a safety violation, which outranks it (exit 1, both shown and
saved); --tally runs the whole budget, counts failing runs per invariant and saves one shrunk
counterexample of each. --invariants judges only those named;
--safety-only ignores liveness (convergence, runs that hang or run out of memory). --confirm runs
the first counterexample in real processes too (see confirm) and reports what happened there.
--env NAME=VALUE (repeatable) puts a variable in the journal's process.env in every scenario, and
while its modules load (a module that reads its configuration at its top level); it is saved with
the counterexample, so a replay needs no flag. explore takes --env (and the config's env) too.
check records the fault windows every run hits (a fault × the kind of step it struck × whose step:
the first worker, a restarted one, a second one) and prints how many. --guided, after the first 100
runs, aims every other run at a window no run has hit yet: an earlier run with one fault more,
placed at a step it took (the same seed gives the same runs with any number of workers). It widens
the coverage and takes those runs from the drawn ones: on the built-in mutants it finds bugs later
(docs/faults.md), so it is off unless asked for.
Before the drawn runs, check judges every single-fault state of the task's fault-free run (what
explore --depth 1 tries: a crash in every distinct state before and after every step, and every
fault of the families drawn that can land there), each state once: a defect one fault at one step
reveals is found whatever the seed draws. Its line says the states judged, at how many of the run's
crash points, its runs (apart from --runs) and seconds; it stops at the first failing state.
--no-sweep leaves it out (the first line says so): the drawn runs alone, as a quick look.
--sweep-runs N bounds it (default 20000, eleven times the standard task's whole sweep): a journal
whose fault-free run is long has many crash points; the line says where the bound cut it short.
Then, on a bound of their own, check tries two faults: explore --depth 2's pairs kept by
dependency (a second fault at a step that touches the key, file, store entry or lease the first
fault's step touched), in its order: the same key first, and the first fault's own new path in
turn. Its line says the pairs tried of those kept, their runs and seconds; it stops at the first
failing pair (found by the two-fault pairs: ...). --pair-runs N bounds them (default 500, runs
apart from --runs); --no-pairs leaves them out, and --no-sweep both.
explore crashes the base scenario (default: the standard workload with every task feature — a
token, a retry budget, planned inputs, a shared temp folder — and no faults) at every step,
before and after, in every distinct crash state (process kill, lost unsynced data, torn and
per-file states), and tries there every other fault of --faults (default: all; no concurrent call when the config says "calls": "one-at-a-time") that
can land at that step: an I/O error, each service answer and failure class at its request, a
duplicate delivery (also with the newcomer first), a service or store restart, a pause, a
takeover, a store fault or edit, a cancel, a user's save, a changed input. It judges each continuation and prints the coverage table
(per step kind, failing/tried per family); --depth 2 tries again at the points of every continuation
whose step touches what the first fault's step touched (the same key, file, store entry or lease),
the closest first (the same key, then file, store entry, lease; then the nearest steps), so
--max-runs spends itself on them; --all-pairs tries every point. Its line says how many pairs
(a depth-1 state × a point of its continuation) it kept of how many, and their runs and CPU.
confirm runs a scenario in real processes (real files, a real node:http service and shared store,
SIGKILL at its crash steps, real pauses and 503 waits) under strace, builds each machine crash's
disk from the workers' real system calls, and judges both worlds: confirmed (exit 1 or 3: the
simulated violations, or a real safety violation that is the same defect under another invariant),
both clean (0), another violation (1: real processes broke a safety invariant that is neither the
finding nor its consequence), not reproduced (4; "(another order)" when the real processes took
the same steps in another order), cannot confirm (2: an I/O error, no strace for a machine crash,
a fault inside a SQLite call, a native better-sqlite3 built for another Node's ABI), or diverged (6: a step both worlds took alike changed the disk
otherwise than simulated, files the journal created matched by the step that created them, not
their names: a defect of durasim). A journal on better-sqlite3 runs the native module there, its
steps compared outside SQLite, what SQLite's calls changed under the step before them
(docs/sqlite.md); a journal on node:sqlite runs Node's own SQLite there.
--wall-limit defaults to 60 s plus the scenario's waits. --calls prints the real system calls
beside the simulated disk calls, per worker step.
Every run is bounded: 5,000 steps, 12 incarnations a worker and an hour of virtual time by
default, each growing with what a scenario's faults ask of virtual time (its pauses, holds,
delays, waits; a crash adds an incarnation). --max-steps, --max-incarnations and
--max-virtual-time (or the config's "bounds") set them for every run; a run that reaches one says
which (a liveness finding, exit 3), apart from a stall or a deadlock.
Ctrl-C (SIGINT) or SIGTERM stops check and explore keeping the work: no more runs, the runs under
way end, what was found is kept (shrunk as far as it got), the reports are written marked
"interrupted after N of M runs", exit 130 or 143; a second signal exits at once.
exit codes: 0 clean · 1 safety violation · 2 bad usage or input · 3 liveness · 4 nondeterminism or sandbox escape · 5 durasim failed · 6 confirm: diverged · 130/143 interrupted by SIGINT/SIGTERM`;

export const COMMANDS = ['check', 'replay', 'explain', 'confirm', 'explore', 'regressions', 'mutants', 'merge'] as const;

/** The help of one command: its usage lines from HELP, then the notes that apply to every command. */
export function commandHelp(command: string): string {
  const lines = HELP.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  durasim ${command} `) || line === `  durasim ${command}`);
  if (start === -1) return HELP;
  let end = start + 1;
  while (end < lines.length && /^ {10,}/.test(lines[end] as string)) end++;
  const notes = lines.slice(lines.indexOf('', lines.indexOf('usage:')) + 1);
  return [`usage:`, ...lines.slice(start, end), '', ...notes].join('\n');
}

/** durasim's own version, from its package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return `durasim ${pkg.version ?? 'unknown'}`;
}

/** "Did you mean check? " for a command one typo away from one of ours, else nothing. */
function closestCommand(typed: string): string {
  const meant = closestName(typed.replace(/^-+/, ''), COMMANDS);
  return meant ? `Did you mean ${meant}? ` : '';
}

const POOL_FLAGS = { workers: 'positive', 'max-heap': 'positive', 'hang-timeout': 'duration' } as const;
/** The bounds' flags (boundsOption.ts), taken by every command that runs scenarios. */
const BOUNDS = BOUND_FLAG_KINDS;

function poolFlags(flags: Record<string, unknown>): PoolFlags {
  return { workers: flags.workers as number | undefined, maxHeapMb: flags['max-heap'] as number | undefined, hangTimeoutMs: flags['hang-timeout'] as number | undefined };
}

/** replay, explain and confirm: --journal, and the config's journal (durasim.config.json or --config) for when it is not given. */
function journalFlags(flags: Record<string, unknown>): { journal?: string; configJournal?: string; configFile?: string } {
  const { journal, configFile } = settingsOf({ config: flags.config });
  return {
    ...(flags.journal !== undefined ? { journal: flags.journal as string } : {}),
    ...(journal !== undefined ? { configJournal: journal } : {}),
    ...(configFile !== undefined ? { configFile } : {}),
  };
}

/** The terminal's printer: a line with its verdict words coloured when colour is on (colour.ts). */
function terminalPrinter(): (line: string) => void {
  const on = colourEnabled(process.env, process.stdout.isTTY === true);
  return (line) => console.log(on ? colourLine(line) : line);
}

/** The verdict word an exit code stands for, for a JSON outcome. */
const verdictOfExit = (code: number): string => Object.entries(EXIT).find(([, value]) => value === code)?.[0] ?? 'harness';

export async function main(argv: string[], print: (line: string) => void = terminalPrinter()): Promise<number> {
  const [command] = argv;
  if (command !== 'check' || !argv.includes('--json')) return await runCommand(argv, print);
  // check --json: stdout carries exactly one JSON document in every outcome (a finding, a clean run, an
  // escape while the journal loads, bad usage, durasim's own failure); every text line goes to stderr.
  const said: string[] = [];
  let printed = false;
  const text = (line: string): void => {
    said.push(line);
    process.stderr.write(`${line}\n`);
  };
  const code = await runCommand(argv, text, (doc) => {
    printed = true;
    print(JSON.stringify(doc, null, 2));
  });
  if (!printed) print(JSON.stringify({ command: 'check', verdict: verdictOfExit(code), exitCode: code, message: said.join('\n') }, null, 2));
  return code;
}

/** Whence the families drawn, when not all of them are: --faults, the config's "faults", or its "calls": "one-at-a-time". */
function faultsFrom(flags: Record<string, unknown>, settings: ReturnType<typeof settingsOf>): string | undefined {
  if (flags.faults !== undefined) return '--faults';
  const config = settings.configFile ?? 'the config';
  if (settings.faults !== undefined) return `"faults" in ${config}`;
  return settings.calls === 'one-at-a-time' ? `"calls": "one-at-a-time" in ${config}: a journal called one at a time meets no concurrent call` : undefined;
}

async function runCommand(argv: string[], print: (line: string) => void, printJson?: (doc: object) => void): Promise<number> {
  const [command, ...rest] = argv;
  try {
    // `durasim <command> --help` (or -h), and `durasim help <command>`: that command's help, exit 0.
    if ((COMMANDS as readonly string[]).includes(command ?? '') && (rest.includes('--help') || rest.includes('-h'))) {
      print(commandHelp(command as string));
      return EXIT.clean;
    }
    // `durasim <command> --version`: the version, as `durasim --version` says it, exit 0.
    if ((COMMANDS as readonly string[]).includes(command ?? '') && rest.includes('--version')) {
      print(version());
      return EXIT.clean;
    }
    switch (command) {
      case 'check': {
        const { positional, flags } = parseArgs(rest, { config: 'string', journal: 'string', runs: 'int', seed: 'seed', 'time-budget': 'duration', faults: 'faults', operations: 'operations', features: 'features', task: 'string', shard: 'shard', 'report-dir': 'string', junit: 'string', json: 'boolean', regressions: 'string', 'no-progress': 'boolean', tally: 'boolean', invariants: 'invariants', 'safety-only': 'boolean', confirm: 'boolean', env: 'env', verbose: 'boolean', guided: 'boolean', sweep: 'boolean', 'no-sweep': 'boolean', 'sweep-runs': 'positive', 'no-pairs': 'boolean', 'pair-runs': 'positive', ...POOL_FLAGS, ...BOUNDS }, 'check');
        if (positional.length > 0) throw usageError(`check takes no positional argument, found ${JSON.stringify(positional[0])}`, 'Pass the journal with --journal <module>');
        // durasim.config.json (or --config): the project's task shape; every flag overrides it.
        const settings = settingsOf(flags);
        const { operations, features, task: taskFile, env: environment, journal } = settings;
        const bounds = boundsOf(flags, settings.bounds);
        // allow-ambient: a fresh seed when none is given; it is printed first, so the run can be repeated.
        const seed = settings.seed ?? Date.now() % 2_147_483_647;
        const options = {
          ...poolFlags(flags),
          runs: settings.runs ?? 1000,
          seed,
          faults: settings.faults ?? defaultFaultKinds(settings.calls),
          ...(faultsFrom(flags, settings) !== undefined ? { faultsFrom: faultsFrom(flags, settings) as string } : {}),
          ...(settings.configFile !== undefined ? { configFile: settings.configFile } : {}),
          ...(operations !== undefined ? { operations } : {}),
          ...(features !== undefined ? { features } : {}),
          ...(taskFile !== undefined ? { task: { file: taskFile, scenario: readTaskFile(taskFile, operations) } } : {}),
          ...(settings.input !== undefined && taskFile === undefined ? { task: inputTask(settings.input, process.cwd()), allOperations: true } : {}),
          reportDir: (flags['report-dir'] as string | undefined) ?? 'durasim-report',
          json: flags.json === true,
          regressionsDir: (flags.regressions as string | undefined) ?? REGRESSIONS_DIR,
          progress: flags['no-progress'] !== true,
          ...(journal !== undefined ? { journal } : {}),
          ...(flags['time-budget'] !== undefined ? { timeBudgetMs: flags['time-budget'] as number } : {}),
          ...(flags.shard !== undefined ? { shard: flags.shard as { index: number; count: number } } : {}),
          ...(flags.junit !== undefined ? { junit: flags.junit as string } : {}),
          ...(flags.invariants !== undefined ? { invariants: flags.invariants as InvariantCode[] } : {}),
          ...(flags['safety-only'] === true ? { safetyOnly: true } : {}),
          ...(flags.guided === true ? { guided: true } : {}),
          // The single-fault sweep runs first unless --no-sweep (--sweep, its default, is still taken).
          sweep: flags['no-sweep'] !== true,
          ...(flags['sweep-runs'] !== undefined ? { sweepRuns: flags['sweep-runs'] as number } : {}),
          // The two-fault pairs follow the sweep unless --no-pairs (or --no-sweep: they are read from the sweep's runs).
          pairs: flags['no-pairs'] !== true && flags['no-sweep'] !== true,
          ...(flags['pair-runs'] !== undefined ? { pairRuns: flags['pair-runs'] as number } : {}),
          ...(flags.tally === true ? { tally: true } : {}),
          ...(flags.confirm === true ? { confirm: true } : {}),
          ...(flags.verbose === true ? { verbose: true } : {}),
          ...(environment !== undefined ? { environment } : {}),
          ...(bounds !== undefined ? { bounds } : {}),
          ...(settings.service !== undefined ? { contract: settings.service } : {}),
        };
        if (options.safetyOnly && options.invariants?.every((code) => invariantKind(code) === 'liveness')) {
          throw usageError('--safety-only leaves none of the --invariants to judge', 'Drop --safety-only, or name a safety invariant');
        }
        if (options.runs < 1) throw usageError('--runs must be at least 1', 'Pass e.g. --runs 1000');
        if (flags.sweep === true && flags['no-sweep'] === true) throw usageError('--sweep and --no-sweep both given', 'Pass one of them (the sweep runs unless --no-sweep)');
        if (flags['pair-runs'] !== undefined && !options.pairs) throw usageError(`--pair-runs bounds the two-fault pairs, and ${flags['no-pairs'] === true ? '--no-pairs' : '--no-sweep'} leaves them out`, 'Pass one of them');
        return await runCheck(options, print, printJson);
      }
      case 'replay':
      case 'explain': {
        const { positional, flags } = parseArgs(rest, command === 'replay' ? { journal: 'string', config: 'string', 'report-dir': 'string', ...POOL_FLAGS, ...BOUNDS } : { journal: 'string', config: 'string', ...POOL_FLAGS, ...BOUNDS }, command);
        const bounds = boundsOf(flags, undefined);
        if (positional.length !== 1) throw usageError(`${command} takes one scenario file, found ${positional.length}`, `Run durasim ${command} <scenario.json>`);
        return await runReplay({
          ...poolFlags(flags),
          file: positional[0] as string,
          mode: command,
          ...journalFlags(flags),
          ...(flags['report-dir'] !== undefined ? { reportDir: flags['report-dir'] as string } : {}),
          ...(bounds !== undefined ? { bounds } : {}),
        }, print);
      }
      case 'confirm': {
        const { positional, flags } = parseArgs(rest, { journal: 'string', config: 'string', 'wall-limit': 'duration', calls: 'boolean', ...POOL_FLAGS, ...BOUNDS }, 'confirm');
        const bounds = boundsOf(flags, undefined);
        if (positional.length !== 1) throw usageError(`confirm takes one scenario file, found ${positional.length}`, 'Run durasim confirm <scenario.json> --journal <module>');
        return await runConfirm({
          ...poolFlags(flags),
          file: positional[0] as string,
          ...journalFlags(flags),
          ...(flags['wall-limit'] !== undefined ? { wallLimitMs: flags['wall-limit'] as number } : {}),
          ...(flags.calls === true ? { calls: true } : {}),
          ...(bounds !== undefined ? { bounds } : {}),
        }, print);
      }
      case 'explore': {
        const { positional, flags } = parseArgs(rest, { config: 'string', journal: 'string', depth: 'positive', 'max-runs': 'positive', faults: 'faults', operations: 'operations', features: 'features', env: 'env', 'report-dir': 'string', regressions: 'string', 'no-progress': 'boolean', 'all-pairs': 'boolean', ...POOL_FLAGS, ...BOUNDS }, 'explore');
        if (positional.length > 1) throw usageError(`explore takes at most one scenario file, found ${positional.length}`, 'Run durasim explore [scenario.json] --journal <module>');
        const depth = (flags.depth as number | undefined) ?? 1;
        if (depth !== 1 && depth !== 2) throw usageError(`--depth must be 1 or 2, found ${depth}`, 'Pass --depth 1 (every crash) or --depth 2 (every pair of crashes)');
        if (flags['all-pairs'] === true && depth !== 2) throw usageError('--all-pairs goes with --depth 2: depth 1 tries one fault at a time', 'Run durasim explore --depth 2 --all-pairs');
        // durasim.config.json (or --config): the journal, the families, the task shape and the user's task as the base; flags override it.
        const settings = settingsOf(flags);
        const { journal, faults, task, operations, features, env: environment } = settings;
        const bounds = boundsOf(flags, settings.bounds);
        const file = positional[0] ?? task;
        // The config's "input" (the journal's own input file) is the base when no scenario or task file is named, as for check.
        const inputBase = file === undefined && settings.input !== undefined ? inputTask(settings.input, process.cwd()) : undefined;
        return await runExplore({
          ...(inputBase !== undefined ? { task: inputBase } : {}),
          ...poolFlags(flags),
          depth,
          ...(flags['all-pairs'] === true ? { allPairs: true } : {}),
          ...(operations !== undefined || features !== undefined ? { shape: { ...(operations ? { operations } : {}), ...(features ? { features } : {}) } } : {}),
          reportDir: (flags['report-dir'] as string | undefined) ?? 'durasim-report',
          regressionsDir: (flags.regressions as string | undefined) ?? REGRESSIONS_DIR,
          progress: flags['no-progress'] !== true,
          ...(file !== undefined ? { file } : {}),
          ...(journal !== undefined ? { journal } : {}),
          ...(faults !== undefined ? { faults } : settings.calls === 'one-at-a-time' ? { faults: defaultFaultKinds(settings.calls) } : {}),
          ...(environment !== undefined ? { environment } : {}),
          ...(flags['max-runs'] !== undefined ? { maxRuns: flags['max-runs'] as number } : {}),
          ...(bounds !== undefined ? { bounds } : {}),
          ...(settings.service !== undefined ? { contract: settings.service } : {}),
        }, print);
      }
      case 'regressions': {
        const { positional, flags } = parseArgs(rest, { regressions: 'string', journal: 'string', family: 'faults', 'older-than': 'duration', 'dry-run': 'boolean' }, 'regressions');
        const [action = 'list', ...more] = positional;
        if ((action !== 'list' && action !== 'prune') || more.length > 0) throw usageError(`regressions takes list or prune, found ${JSON.stringify(positional.join(' '))}`, 'Run durasim regressions list, or durasim regressions prune --family <f> (durasim regressions --help)');
        if (action === 'list' && flags['dry-run'] === true) throw usageError('--dry-run goes with prune: list deletes nothing', 'Run durasim regressions prune … --dry-run');
        if (action === 'prune' && flags.journal === undefined && flags.family === undefined && flags['older-than'] === undefined) {
          throw usageError('prune needs a filter, or it would delete every stored regression', 'Name what to prune with --journal, --family or --older-than, e.g. durasim regressions prune --family concurrent --dry-run');
        }
        return await runRegressions({
          action,
          regressionsDir: (flags.regressions as string | undefined) ?? REGRESSIONS_DIR,
          ...(flags.journal !== undefined ? { journal: flags.journal as string } : {}),
          ...(flags.family !== undefined ? { families: flags.family as FaultKind[] } : {}),
          ...(flags['older-than'] !== undefined ? { olderThanMs: flags['older-than'] as number } : {}),
          ...(flags['dry-run'] === true ? { dryRun: true } : {}),
        }, print);
      }
      case 'mutants':
      {
        const { positional, flags } = parseArgs(rest, { runs: 'positive', out: 'string', workers: 'positive' }, 'mutants');
        if (positional.length > 0) throw usageError(`mutants takes no positional argument, found ${JSON.stringify(positional[0])}`, 'Run durasim mutants [--runs N] [--out <dir>] [--workers N]');
        return await runMutants({ runs: flags.runs as number | undefined, out: flags.out as string | undefined, workers: flags.workers as number | undefined });
      }
      case 'merge': {
        const { positional } = parseArgs(rest, {}, 'merge');
        const { merged, exitCode } = mergeSummaries(positional);
        print(JSON.stringify(merged, null, 2));
        // The JSON is for scripts (stdout); a person reads the verdict on stderr.
        process.stderr.write(`${mergedLine(merged)}\n`);
        return exitCode;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        print(command === 'help' && rest[0] !== undefined && (COMMANDS as readonly string[]).includes(rest[0]) ? commandHelp(rest[0]) : HELP);
        return command === undefined ? EXIT.usage : EXIT.clean;
      case '--version':
      case '-v':
      case 'version':
        print(version());
        return EXIT.clean;
      default:
        throw usageError(`there is no command ${JSON.stringify(command)}`, `${closestCommand(command)}Use ${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1)} (durasim help lists them)`);
    }
  } catch (error) {
    if (error instanceof DurasimError) {
      (printJson ? print : (line: string) => process.stderr.write(`${line}\n`))(error.message);
      // durasim's own failure said with its fix (a file of its package missing): exit 5; else the input's fault.
      return error instanceof OwnFailure ? EXIT.harness : EXIT.usage;
    }
    // durasim's own failure: exit 5, never a finding.
    const where = error instanceof Error && error.stack ? ` (${error.stack.split('\n').slice(1, 3).map((l) => l.trim()).join(' ')})` : '';
    return reportHarnessFailure(`${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}${where}`, undefined, 'durasim-report', printJson ? print : (line) => process.stderr.write(`${line}\n`));
  }
}
