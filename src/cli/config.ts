/**
 * durasim.config.json: the task shape of a project, found as vitest finds its config — in the folder
 * `check` runs in (or named with --config) — so that a small journal can stay small: which
 * operation kinds it supports, which task features and fault families are in play, its own task to
 * vary, its journal, budget, seed and environment. Flags override what it says. Paths in it are
 * relative to its own folder. Every problem is refused (exit 2) before anything runs, naming the
 * key; schema/config.schema.json says the same for an editor.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DurasimError } from '../../model/contract/failure.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { CALLS, FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES, type Calls, type FaultKind, type OperationKind, type TaskFeature } from '../arbitraries.js';
import { ENV_NAME, SEED_LIMIT } from './args.js';
import { closestName } from './closestName.js';
import { readScenarioFile } from './scenarioFile.js';
import type { BoundsOption } from './boundsOption.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';
import { parseContract } from '../../simulator/contract/parseContract.js';
import { parseInputSpec, type InputSpec } from '../inputTask.js';
import { SCENARIO_LIMITS } from '../../simulator/scenario/scenarioLimits.js';
import { JsonTextError, parseJsonText } from '../../simulator/scenario/jsonText.js';
import { readInputFile } from '../readInputFile.js';
import { environmentProblem, shownName } from './environmentLimits.js';

/** The file a project's config is in, looked for in the folder `check` runs in. */
export const CONFIG_FILE = 'durasim.config.json';

/** What a config may say; every key is optional. */
export interface DurasimConfig {
  /** The journal module, relative to the config's folder. */
  journal?: string;
  runs?: number;
  seed?: number;
  /** The fault families drawn (default: all; without concurrent calls when `calls` is one-at-a-time). */
  faults?: FaultKind[];
  /** How the journal is called: one-at-a-time leaves concurrent calls out of the default families. */
  calls?: Calls;
  /** The operation kinds the journal supports (default: all). */
  operations?: OperationKind[];
  /** The task features a run may carry (default: all). */
  features?: TaskFeature[];
  /** A scenario-format file whose task, files, service and store the runs vary, relative to the config's folder. */
  task?: string;
  /** Variables in the journal's process.env in every run. */
  env?: Record<string, string>;
  /** Bounds for every run (maxSteps, maxIncarnations, maxVirtualTimeMs), over the scenario's. */
  bounds?: BoundsOption;
  /** The user's own API (docs/service-contract.md): every run's service speaks it; undefined for durasim's own protocol. */
  service?: ServiceContract;
  /** The task from the journal's own input file (src/inputTask.ts); its file relative to where check runs. */
  input?: InputSpec;
}

/** The most bytes a config may take: what a scenario file may (its "env" is held to a scenario's limits). */
const CONFIG_FILE_BYTES = SCENARIO_LIMITS.fileChars * 4;

const KEYS = ['$schema', 'journal', 'runs', 'seed', 'faults', 'calls', 'operations', 'features', 'task', 'env', 'bounds', 'service', 'input'] as const;

/** A value as a message quotes it: its JSON, cut to 80 characters with its length when longer. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 80 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}

function refuse(file: string, reason: string, fix: string): DurasimError {
  return new DurasimError('read the config', `${file} ${reason}`, fix);
}

/** A list of names from a closed set: every one known, none twice, at least one. */
function namesOf<T extends string>(file: string, key: string, value: unknown, known: readonly T[]): T[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string')) throw refuse(file, `says "${key}": ${quoted(value)}, which is not a list of names`, `Write e.g. "${key}": ["${known[0]}"], from ${known.join(', ')}`);
  const unknown = (value as string[]).find((v) => !(known as readonly string[]).includes(v));
  if (unknown !== undefined) {
    const meant = closestName(unknown, known);
    throw refuse(file, `says "${key}" has ${quoted(unknown)}, which is not one`, `${meant ? `Did you mean "${meant}"? ` : ''}Use any of ${known.join(', ')}`);
  }
  return [...new Set(value as T[])];
}

const BOUND_KEYS = ['maxSteps', 'maxIncarnations', 'maxVirtualTimeMs'] as const;

/** "bounds": { "maxSteps": 20000, ... }: whole numbers within the scenario format's limits. */
function boundsIn(file: string, value: unknown): BoundsOption {
  const example = 'Write e.g. "bounds": { "maxSteps": 20000, "maxVirtualTimeMs": 7200000 }';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw refuse(file, `says "bounds": ${quoted(value)}, which is not an object`, example);
  const bounds: BoundsOption = {};
  for (const [key, n] of Object.entries(value)) {
    if (!(BOUND_KEYS as readonly string[]).includes(key)) {
      const meant = closestName(key, BOUND_KEYS);
      throw refuse(file, `says "bounds" has ${quoted(key)}, which is not a bound`, `${meant ? `Did you mean "${meant}"? ` : ''}Use any of ${BOUND_KEYS.join(', ')}`);
    }
    const limit = key === 'maxSteps' ? SCENARIO_LIMITS.maxSteps : key === 'maxIncarnations' ? SCENARIO_LIMITS.maxIncarnations : Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > limit) throw refuse(file, `says "bounds.${key}": ${quoted(n)}, which is not a whole number from 1 to ${limit}`, example);
    bounds[key as (typeof BOUND_KEYS)[number]] = n as number;
  }
  return bounds;
}

/** The config's values, checked, with its paths made relative to `cwd` as flags' are. */
export function parseConfig(file: string, text: string, cwd: string): DurasimConfig {
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    throw refuse(file, error.syntax !== undefined ? `is not JSON (${error.syntax})` : error.message, 'Fix the file, or delete it to run with the defaults');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw refuse(file, 'is not a JSON object', `Write e.g. { "journal": "./my-journal.ts", "operations": ["publish"] }`);
  const config: DurasimConfig = {};
  const at = (path: string): string => {
    const full = resolve(dirname(resolve(cwd, file)), path);
    const shown = relative(cwd, full);
    return shown === '' ? '.' : isAbsolute(shown) || shown.startsWith('..') ? full : `./${shown}`;
  };
  for (const [key, value] of Object.entries(raw)) {
    // The mapping of a journal's own state names lives beside the inspect() that returns them (docs/adapters.md).
    if (key === 'states') throw refuse(file, 'has a key "states": a journal\'s own state names are mapped on its adapter, beside the inspect() that returns them, so that every command that loads the journal reads its records alike', "Move the mapping to the adapter: export const journal = { name, run, inspect, states: { … } } (docs/adapters.md, \"Your own state names\")");
    switch (key as (typeof KEYS)[number]) {
      case '$schema':
        break;
      case 'journal':
      case 'task':
        if (typeof value !== 'string' || value.trim() === '') throw refuse(file, `says "${key}": ${quoted(value)}, which is not a path`, `Write the ${key === 'journal' ? 'journal module' : 'scenario file'}'s path, relative to the config's folder`);
        if (Buffer.byteLength(value) > SCENARIO_LIMITS.pathBytes) throw refuse(file, `says "${key}": ${quoted(value)}, a path of ${Buffer.byteLength(value)} bytes, over the limit of ${SCENARIO_LIMITS.pathBytes} (Linux's)`, `Write the ${key === 'journal' ? 'journal module' : 'scenario file'}'s path, relative to the config's folder`);
        if (key === 'journal') config.journal = at(value);
        else config.task = at(value);
        break;
      case 'runs':
        if (!Number.isSafeInteger(value) || (value as number) < 1) throw refuse(file, `says "runs": ${quoted(value)}, which is not a whole number of at least 1`, 'Write e.g. "runs": 2000');
        config.runs = value as number;
        break;
      case 'seed':
        if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) >= SEED_LIMIT) throw refuse(file, `says "seed": ${quoted(value)}, which is not a whole number from 0 to ${SEED_LIMIT - 1}`, 'Write e.g. "seed": 42, or leave it out for a fresh seed each run');
        config.seed = value as number;
        break;
      case 'faults':
        config.faults = namesOf(file, key, value, FAULT_KINDS);
        break;
      case 'calls':
        if (typeof value !== 'string' || !(CALLS as readonly string[]).includes(value)) throw refuse(file, `says "calls": ${quoted(value)}, which is not how a journal is called`, 'Write "calls": "one-at-a-time" (the journal is never called again while a call is under way: concurrent calls are left out of the default families), or "concurrent" (the default)');
        config.calls = value as Calls;
        break;
      case 'operations':
        config.operations = namesOf(file, key, value, OPERATION_KINDS);
        break;
      case 'features':
        if (Array.isArray(value) && value.length === 0) config.features = [];
        else config.features = namesOf(file, key, value, TASK_FEATURES);
        break;
      case 'env': {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw refuse(file, `says "env": ${quoted(value)}, which is not an object of names and texts`, 'Write e.g. "env": { "LOCK_TTL_MS": "5000" }');
        for (const [name, text] of Object.entries(value)) {
          if (!ENV_NAME.test(name) || typeof text !== 'string') throw refuse(file, `says "env" has ${quoted(name)}: ${quoted(text)}, which is not a variable's name with a text`, 'Write names of letters, digits and _ (not starting with a digit), each with a string value');
        }
        // Held to the scenario's limits here: every saved scenario carries the environment, and one past them is refused when it is read.
        const problem = environmentProblem(value as Record<string, string>);
        if (problem !== undefined) throw refuse(file, `says "env"${problem.name === undefined ? '' : ` has ${JSON.stringify(shownName(problem.name))}`}: ${problem.reason}`, problem.fix);
        config.env = { ...(value as Record<string, string>) };
        break;
      }
      case 'bounds':
        config.bounds = boundsIn(file, value);
        break;
      case 'input': {
        const spec = parseInputSpec(value, (reason, fix) => refuse(file, reason, fix));
        config.input = { ...spec, file: at(spec.file) };
        break;
      }
      case 'service': {
        const contract = parseContract(value, 'service', (field, problem, fix) => {
          throw refuse(file, `says "${field}" ${problem}`, fix ?? 'Fix the service contract (docs/service-contract.md)');
        });
        if (contract) config.service = contract;
        break;
      }
      default: {
        const meant = closestName(key, KEYS);
        throw refuse(file, `has a key ${quoted(key)} that durasim does not know`, `${meant ? `Did you mean "${meant}"? ` : ''}Use any of ${KEYS.filter((k) => k !== '$schema').join(', ')}`);
      }
    }
  }
  if (config.task !== undefined && config.input !== undefined) throw refuse(file, 'says both "task" and "input", two tasks', 'Keep one: "input" derives the task from your own data file; "task" is a scenario file');
  if (config.calls === 'one-at-a-time' && config.faults?.includes('concurrent')) throw refuse(file, 'says "calls": "one-at-a-time" and names "concurrent" among its "faults": a journal called one at a time meets no concurrent call', 'Drop "concurrent" from "faults", or "calls"');
  return config;
}

/** The config `check` runs with: the one --config names (which must exist), else durasim.config.json in `cwd` if there is one. */
export function loadConfig(named: string | undefined, cwd: string = process.cwd()): { file: string; config: DurasimConfig } | undefined {
  const file = named ?? (existsSync(join(cwd, CONFIG_FILE)) ? CONFIG_FILE : undefined);
  if (file === undefined) return undefined;
  const text = readInputFile(resolve(cwd, file), {
    shown: file,
    action: 'read the config',
    fix: named ? 'Pass the path of a durasim.config.json' : 'Fix its permissions, or delete it',
    limitBytes: CONFIG_FILE_BYTES,
    tooLarge: (size) => refuse(file, `is ${size}, over the limit of ${CONFIG_FILE_BYTES}`, 'A config says the task shape: keep its "env" to what the journal reads'),
  });
  return { file, config: parseConfig(file, text, cwd) };
}

/** The settings a command runs with: its flags, else the config's (--config, or durasim.config.json in `cwd`), else nothing. */
export function settingsOf(flags: Record<string, unknown>, cwd: string = process.cwd()): DurasimConfig & { configFile?: string } {
  const found = loadConfig(flags.config as string | undefined, cwd);
  const config = found?.config ?? {};
  const pick = <K extends Exclude<keyof DurasimConfig, 'env'>>(key: K): DurasimConfig[K] => (flags[key] as DurasimConfig[K] | undefined) ?? config[key];
  const settings: DurasimConfig & { configFile?: string } = {};
  for (const key of ['journal', 'runs', 'seed', 'faults', 'calls', 'operations', 'features', 'task'] as const) {
    const value = pick(key);
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  if (config.bounds !== undefined) settings.bounds = config.bounds;
  if (config.service !== undefined) settings.service = config.service;
  if (config.input !== undefined) settings.input = config.input;
  // A variable named on the command line wins over the config's of the same name.
  if (flags.env !== undefined || config.env !== undefined) {
    settings.env = { ...config.env, ...(flags.env as Record<string, string> | undefined) };
    const problem = flags.env !== undefined && config.env !== undefined ? environmentProblem(settings.env) : undefined; // each alone was held to the limits where it was read
    if (problem !== undefined) throw new DurasimError('read the config', `${found?.file ?? CONFIG_FILE} says "env", and --env adds to it: ${problem.reason}`, problem.fix);
  }
  if (found) settings.configFile = found.file;
  return settings;
}

/** The user's task file, read as a scenario (exit 2 when it is not one), with at least one operation of the kinds in play. */
export function readTaskFile(file: string, operations: readonly OperationKind[] | undefined): Scenario {
  const scenario = readScenarioFile(file, 'Pass a scenario-format file (docs/scenario-format.md) holding your task', 'read the task');
  const kept = scenario.task.operations.filter((op) => operations === undefined || operations.includes(op.kind));
  if (kept.length === 0) throw new DurasimError('read the task', `${file} has no operation of the kinds ${(operations ?? OPERATION_KINDS).join(', ')}`, 'Add one to its task, or name its kinds in "operations" (--operations)');
  return scenario;
}
