/**
 * The durasim command line. Exit codes: 0 clean; 1 safety violation; 2 bad usage or bad input;
 * 3 liveness (bounds ran out, or the journal blocked or ran out of memory); 4 nondeterminism or a
 * sandbox escape by the journal under test; 5 durasim itself failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invariantKind, type InvariantCode } from '../../model/violation.js';
import { DurasimError } from '../../model/contract/failure.js';
import { defaultFaultKinds, type FaultKind } from '../arbitraries.js';
import { readTaskFile, settingsOf } from './config.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';
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

export { COMMANDS, commandHelp, HELP } from './help.js';
import { COMMANDS, commandHelp, HELP } from './help.js';

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
function journalFlags(flags: Record<string, unknown>): { journal?: string; configJournal?: string; configFile?: string; configContract?: ServiceContract } {
  const { journal, configFile, service } = settingsOf({ config: flags.config });
  return {
    ...(flags.journal !== undefined ? { journal: flags.journal as string } : {}),
    ...(journal !== undefined ? { configJournal: journal } : {}),
    ...(configFile !== undefined ? { configFile } : {}),
    ...(service !== undefined ? { configContract: service } : {}),
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
        const { positional, flags } = parseArgs(rest, { config: 'string', journal: 'string', runs: 'int', seed: 'seed', 'time-budget': 'duration', faults: 'faults', operations: 'operations', features: 'features', task: 'string', shard: 'shard', 'report-dir': 'string', junit: 'string', json: 'boolean', regressions: 'string', 'no-progress': 'boolean', tally: 'boolean', invariants: 'invariants', 'safety-only': 'boolean', confirm: 'boolean', 'no-real-restart': 'boolean', env: 'env', verbose: 'boolean', guided: 'boolean', sweep: 'boolean', 'no-sweep': 'boolean', 'sweep-runs': 'positive', 'no-pairs': 'boolean', 'pair-runs': 'positive', ...POOL_FLAGS, ...BOUNDS }, 'check');
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
          // A clean verdict is cross-checked by a real restart unless --no-real-restart.
          realRestart: flags['no-real-restart'] !== true,
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
        const { positional, flags } = parseArgs(rest, { config: 'string', journal: 'string', depth: 'positive', 'max-runs': 'positive', faults: 'faults', operations: 'operations', features: 'features', env: 'env', 'report-dir': 'string', regressions: 'string', 'no-progress': 'boolean', 'all-pairs': 'boolean', 'no-real-restart': 'boolean', ...POOL_FLAGS, ...BOUNDS }, 'explore');
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
          // A clean verdict is cross-checked by real restarts unless --no-real-restart, as check's.
          realRestart: flags['no-real-restart'] !== true,
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
