/**
 * Scenario: the only input of a simulation, as plain versioned JSON.
 *
 * Rules:
 * - Everything nondeterministic is here: faults, scheduling choices, random draws. The simulator
 *   owns no RNG and reads no real clock.
 * - Every field but `task` may be omitted; a missing entry means the boring default (no fault,
 *   lowest ready process first, random() = 0), so shrinking toward empty shrinks toward a
 *   fault-free run.
 * - `parseScenario` validates untrusted JSON and fills defaults; a malformed scenario gets
 *   `Failed to load scenario: <field> <problem>. <fix>`. Unknown fields are refused (with the
 *   field they were probably meant to be), never ignored; paths must be canonical, relative, free
 *   of NUL bytes, and no file may be another one's folder.
 */
import type { Operation, RetryBudget, Task, TempFolder } from '../../model/contract/contract.js';
import { canaryOf } from '../../model/contract/secret.js';
import { pathClash } from './scenarioFields.js';
import { arr, bool, describe, fail, int, isRecord, mapEntries, misnamedKind, nonEmptyStr, oneOf, optional, relativePath, shown, str, strict, type Json } from './scenarioValidators.js';
import { SCENARIO_LIMITS } from './scenarioLimits.js';
import type { ServiceContract } from '../contract/contract.js';
import { parseContract } from '../contract/parseContract.js';
import { recordedJournalOf } from './recordedJournal.js';
import { JsonTextError, parseJsonText } from './jsonText.js';

export const SCENARIO_FORMAT = 'durasim.scenario';
/**
 * The format's version, which also names the world's rules a scenario replays under (a saved
 * scenario replays the same trace forever): 1, Node's whole-file calls (writeFile, appendFile,
 * copyFile through a path) are one step each; 2, they are Node's steps — open, write, close — so a
 * kill can land between them; 3, what a module does while it loads is no step (its synchronous
 * calls are served, unnumbered: MODULE_LOAD_VERSION), a second call of run() in a running process
 * (a concurrent call) runs its code before the clock moves, and a bound left at its default grows
 * with what the faults ask of virtual time (scenarioBounds.ts). durasim writes the newest; it
 * replays every older one as it ran.
 */
export const SCENARIO_VERSION = 3;
/** The first format under which what a module does while it loads is no step (sandbox/turn.ts asModuleLoad). */
export const MODULE_LOAD_VERSION = 3;
/** The JSON Schema of the format (schema/scenario.schema.json in the package), named by `$schema` in every scenario durasim writes. */
export const SCENARIO_SCHEMA_URL = 'https://unpkg.com/durasim/schema/scenario.schema.json';
export const SERVICE_URL = 'http://service.durasim';
export const WORK_DIR = '/work';

export * from './scenarioFaults.js';
export { recordedJournalOf, type RecordedJournal } from './recordedJournal.js';
export { DEFAULT_STORE, STORE_CALL_FAULTS, type ScenarioStore, type StoreCallFaultKind } from '../store/store.js';
import { DEFAULT_STORE, type ScenarioStore } from '../store/store.js';
import type { Fault } from './scenarioFaults.js';
import { parseFault } from './scenarioFaults.js';


export interface ScenarioService {
  /**
   * durable: keys survive a service restart. volatile: a restart forgets them (replays make new
   * effects). none: the service keeps no idempotency keys at all — every POST is a new effect (a
   * downstream with no idempotency support); queries still find effects by key.
   */
  idempotencyMemory: 'durable' | 'volatile' | 'none';
  /** Whether GET /operations/:key is offered. */
  query: boolean;
  /** Virtual milliseconds between a request and its response. */
  latencyMs: number;
  /** Effects committed before the run (an earlier intent under the same key, say). */
  existing: { key: string; body: string }[];
  /** Values served by GET /resources/:name. A missing name answers 404. */
  resources: Record<string, string>;
  /** The user's own API (contract/contract.ts), whole; absent: durasim's own protocol (service-protocol.md). */
  contract?: ServiceContract;
}

export interface ScenarioBounds {
  maxSteps: number;
  maxIncarnations: number;
  maxVirtualTimeMs: number;
}

export interface Scenario {
  format: typeof SCENARIO_FORMAT;
  version: number;
  name?: string;
  description?: string;
  /** accessToken: the task carries an access token, canary number `canary` (model/contract/secret.ts); the service then wants it on every request. */
  task: { id: string; operations: Operation[]; accessToken?: { canary: number }; retryBudget?: RetryBudget; temp?: TempFolder };
  /** A changed intent: incarnations after the first are handed these operations instead. */
  taskAfterRestart?: { operations: Operation[] };
  /** Initial files, relative to the work dir, all durable. */
  files: Record<string, string>;
  service: ScenarioService;
  /** The shared store (store.ts): memory, latency, consistency, clock skew, call timeout. */
  store: ScenarioStore;
  faults: Fault[];
  /** Choice i picks among the ready workers (sorted by pid) at the i-th point where several are ready. */
  schedule: number[];
  /** Values returned by env.random(), in call order; past the end, 0. */
  random: number[];
  /** process.env as the journal sees it under simulation (default: empty). */
  environment: Record<string, string>;
  restartDelayMs: number;
  bounds: ScenarioBounds;
}

export const DEFAULT_SERVICE: ScenarioService = {
  idempotencyMemory: 'durable',
  query: true,
  latencyMs: 1,
  existing: [],
  resources: {},
};
export const DEFAULT_BOUNDS: ScenarioBounds = { maxSteps: 5000, maxIncarnations: 12, maxVirtualTimeMs: 3_600_000 };
export const DEFAULT_RESTART_DELAY_MS = 100;

const OPERATION_FIELDS = { publish: ['kind', 'key', 'body', 'retrySafe', 'input'], lookup: ['kind', 'key', 'resource'], edit: ['kind', 'key', 'path', 'append'] } as const;
const TOP_FIELDS = ['$schema', 'format', 'version', 'name', 'description', 'task', 'taskAfterRestart', 'files', 'service', 'store', 'faults', 'schedule', 'random', 'environment', 'restartDelayMs', 'bounds', 'journal', 'regression'];

function parseOperation(value: Json, field: string): Operation {
  if (!isRecord(value)) fail(field, `must be an object, found ${describe(value)}`);
  misnamedKind(value, Object.keys(OPERATION_FIELDS), field);
  const kind = oneOf(value.kind, ['publish', 'lookup', 'edit'] as const, `${field}.kind`);
  strict(value, field, OPERATION_FIELDS[kind], ['kind', 'key']);
  const key = nonEmptyStr(value.key, `${field}.key`);
  if (!/^[A-Za-z0-9._-]+$/.test(key)) fail(`${field}.key`, `must use only letters, digits, ".", "_" and "-", found ${JSON.stringify(key)}`);
  switch (kind) {
    case 'publish': {
      const op: Operation = { kind, key, body: str(value.body, `${field}.body`) };
      if (value.retrySafe !== undefined) op.retrySafe = bool(value.retrySafe, `${field}.retrySafe`);
      if (value.input !== undefined) {
        if (!isRecord(value.input)) fail(`${field}.input`, `must be an object, found ${describe(value.input)}`, 'Write "input": { "resource": "config", "version": "v1" }.');
        strict(value.input, `${field}.input`, ['resource', 'version'], ['resource', 'version']);
        op.input = { resource: nonEmptyStr(value.input.resource, `${field}.input.resource`), version: str(value.input.version, `${field}.input.version`) };
      }
      return op;
    }
    case 'lookup':
      return { kind, key, resource: nonEmptyStr(value.resource, `${field}.resource`) };
    case 'edit':
      return { kind, key, path: relativePath(value.path, `${field}.path`), append: str(value.append, `${field}.append`) };
  }
}

/** The task's id: it names files and store keys (<id>.cancel, <id>/events/…), so it is a plain name: letters, digits, ".", "_" and "-". */
function taskId(value: Json): string {
  const id = nonEmptyStr(value, 'task.id');
  if (!/^[A-Za-z0-9._-]+$/.test(id) || id === '.' || id === '..') fail('task.id', `must use only letters, digits, ".", "_" and "-" (it names files and store keys), found ${shown(JSON.stringify(id))}`);
  return id;
}

function parseOperations(value: Json, field: string): Operation[] {
  const operations = arr(value, field, SCENARIO_LIMITS.operations).map((op, i) => parseOperation(op, `${field}[${i}]`));
  const seen = new Set<string>();
  operations.forEach((op, i) => {
    if (seen.has(op.key)) fail(`${field}[${i}].key`, `repeats the key ${JSON.stringify(op.key)}`, 'Give every operation its own key.');
    seen.add(op.key);
  });
  return operations;
}

function parseService(value: Json): ScenarioService {
  if (value === undefined) return { ...DEFAULT_SERVICE, existing: [], resources: {} };
  if (!isRecord(value)) fail('service', `must be an object, found ${describe(value)}`);
  strict(value, 'service', ['idempotencyMemory', 'query', 'latencyMs', 'existing', 'resources', 'contract']);
  const contract = value.contract === undefined ? undefined : parseContract(value.contract, 'service.contract', fail);
  const service: ScenarioService = {
    idempotencyMemory: optional(value, 'idempotencyMemory', (v) => oneOf(v, ['durable', 'volatile', 'none'] as const, 'service.idempotencyMemory'), DEFAULT_SERVICE.idempotencyMemory),
    query: optional(value, 'query', (v) => bool(v, 'service.query'), DEFAULT_SERVICE.query),
    latencyMs: optional(value, 'latencyMs', (v) => int(v, 'service.latencyMs'), DEFAULT_SERVICE.latencyMs),
    existing: optional(value, 'existing', (v) => arr(v, 'service.existing').map((e, i) => {
      if (!isRecord(e)) fail(`service.existing[${i}]`, `must be an object, found ${describe(e)}`);
      strict(e, `service.existing[${i}]`, ['key', 'body'], ['key', 'body']);
      return { key: nonEmptyStr(e.key, `service.existing[${i}].key`), body: str(e.body, `service.existing[${i}].body`) };
    }), []),
    resources: optional(value, 'resources', (v) => {
      return Object.fromEntries(mapEntries(v, 'service.resources', 'name to value').map(([k, text]) => [nonEmptyStr(k, `service.resources key ${shown(JSON.stringify(k))}`), str(text, `service.resources.${shown(k)}`)]));
    }, {}),
  };
  if (contract) service.contract = contract;
  return service;
}

/** What the service keeps of its keys: the scenario's, unless its contract says the service forgets them on restart or keeps none. */
export function keyMemoryOf(service: ScenarioService): ScenarioService['idempotencyMemory'] {
  const said = service.contract?.memory;
  return said === 'volatile' || said === 'none' ? said : service.idempotencyMemory;
}

/** The base URL the journal calls: the contract's, or durasim's own service's. */
export function serviceUrlOf(scenario: Pick<Scenario, 'service'>): string {
  return scenario.service.contract?.url ?? SERVICE_URL;
}

function parseStore(value: Json): ScenarioStore {
  if (value === undefined) return { ...DEFAULT_STORE };
  if (!isRecord(value)) fail('store', `must be an object, found ${describe(value)}`);
  strict(value, 'store', ['memory', 'latencyMs', 'consistency', 'clockSkewMs', 'timeoutMs']);
  return {
    memory: optional(value, 'memory', (v) => oneOf(v, ['durable', 'volatile'] as const, 'store.memory'), DEFAULT_STORE.memory),
    latencyMs: optional(value, 'latencyMs', (v) => int(v, 'store.latencyMs'), DEFAULT_STORE.latencyMs),
    consistency: optional(value, 'consistency', (v) => oneOf(v, ['linearizable', 'stale-reads'] as const, 'store.consistency'), DEFAULT_STORE.consistency),
    clockSkewMs: optional(value, 'clockSkewMs', (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail('store.clockSkewMs', `must be a whole number of milliseconds (negative: the store's clock is behind), found ${describe(v)}`);
      return v;
    }, DEFAULT_STORE.clockSkewMs),
    timeoutMs: optional(value, 'timeoutMs', (v) => int(v, 'store.timeoutMs', 1), DEFAULT_STORE.timeoutMs),
  };
}

/** Validates untrusted JSON (already parsed) and returns a complete scenario with defaults filled in. */
export function parseScenario(value: Json): Scenario {
  if (!isRecord(value)) fail('the scenario', `must be a JSON object, found ${describe(value)}`);
  strict(value, '', TOP_FIELDS, ['format', 'version', 'task']);
  if (value.format !== SCENARIO_FORMAT) fail('format', `must be ${JSON.stringify(SCENARIO_FORMAT)}, found ${describe(value.format)}`, 'Is this a durasim scenario file?');
  const version = int(value.version, 'version', 1);
  if (version > SCENARIO_VERSION) {
    fail('version', `is ${version}, newer than this durasim understands (${SCENARIO_VERSION})`, 'Upgrade durasim to replay this scenario.');
  }
  if (!isRecord(value.task)) fail('task', `must be an object, found ${describe(value.task)}`);
  strict(value.task, 'task', ['id', 'operations', 'accessToken', 'retryBudget', 'temp'], ['id', 'operations']);
  const scenario: Scenario = {
    format: SCENARIO_FORMAT,
    version,
    task: { id: taskId(value.task.id), operations: parseOperations(value.task.operations, 'task.operations'), ...parseAccessToken(value.task.accessToken), ...parseRetryBudget(value.task.retryBudget), ...parseTemp(value.task.temp) },
    files: optional(value, 'files', (v) => {
      return Object.fromEntries(mapEntries(v, 'files', 'path to text').map(([p, text]) => [relativePath(p, `files key ${shown(JSON.stringify(p))}`), str(text, `files[${shown(JSON.stringify(p))}]`)]));
    }, {}),
    service: parseService(value.service),
    store: parseStore(value.store),
    faults: optional(value, 'faults', (v) => arr(v, 'faults', SCENARIO_LIMITS.faults).map((f, i) => parseFault(f, `faults[${i}]`, version)), []),
    schedule: optional(value, 'schedule', (v) => arr(v, 'schedule', SCENARIO_LIMITS.decisions).map((c, i) => int(c, `schedule[${i}]`)), []),
    random: optional(value, 'random', (v) => arr(v, 'random', SCENARIO_LIMITS.decisions).map((r, i) => {
      if (typeof r !== 'number' || !(r >= 0 && r < 1)) fail(`random[${i}]`, `must be a number in [0, 1), found ${describe(r)}`);
      return r;
    }), []),
    environment: optional(value, 'environment', (v) => {
      return Object.fromEntries(mapEntries(v, 'environment', 'name to text').map(([k, text]) => [nonEmptyStr(k, `environment key ${shown(JSON.stringify(k))}`), str(text, `environment.${shown(k)}`)]));
    }, {}),
    restartDelayMs: optional(value, 'restartDelayMs', (v) => int(v, 'restartDelayMs'), DEFAULT_RESTART_DELAY_MS),
    bounds: optional(value, 'bounds', (v) => {
      if (!isRecord(v)) fail('bounds', `must be an object, found ${describe(v)}`);
      strict(v, 'bounds', ['maxSteps', 'maxIncarnations', 'maxVirtualTimeMs']);
      return {
        maxSteps: optional(v, 'maxSteps', (n) => int(n, 'bounds.maxSteps', 1, SCENARIO_LIMITS.maxSteps), DEFAULT_BOUNDS.maxSteps),
        maxIncarnations: optional(v, 'maxIncarnations', (n) => int(n, 'bounds.maxIncarnations', 1, SCENARIO_LIMITS.maxIncarnations), DEFAULT_BOUNDS.maxIncarnations),
        maxVirtualTimeMs: optional(v, 'maxVirtualTimeMs', (n) => int(n, 'bounds.maxVirtualTimeMs', 1), DEFAULT_BOUNDS.maxVirtualTimeMs),
      };
    }, { ...DEFAULT_BOUNDS }),
  };
  recordedJournalOf(value); // checked here; read by the commands that run a finding again (src/cli/scenarioFile.ts)
  if (value.regression !== undefined && !isRecord(value.regression)) fail('regression', `must be an object (what durasim recorded when it saved the scenario), found ${describe(value.regression)}`);
  if (value.name !== undefined) scenario.name = str(value.name, 'name', SCENARIO_LIMITS.titleChars);
  if (value.description !== undefined) scenario.description = str(value.description, 'description', SCENARIO_LIMITS.descriptionChars);
  if (value.taskAfterRestart !== undefined) {
    if (!isRecord(value.taskAfterRestart)) fail('taskAfterRestart', `must be an object, found ${describe(value.taskAfterRestart)}`);
    strict(value.taskAfterRestart, 'taskAfterRestart', ['operations'], ['operations']);
    scenario.taskAfterRestart = { operations: parseOperations(value.taskAfterRestart.operations, 'taskAfterRestart.operations') };
  }
  const clash = pathClash(scenarioPaths(scenario));
  if (clash) fail('files', `name ${JSON.stringify(clash[0])} both as a file and as the folder of ${JSON.stringify(clash[1])}`, 'Give every file a path that is not another file\'s folder.');
  const tempDir = scenario.task.temp?.dir;
  const edited = tempDir === undefined ? undefined : taskPaths(scenario).find((path) => path.startsWith(`${tempDir}/`));
  if (edited !== undefined) fail('task.temp.dir', `holds ${JSON.stringify(edited)}, a file the task edits or the user saves`, 'Give the task a temp folder of its own (files there before the run are other tasks\' temp files).');
  const workers = 1 + scenario.faults.filter((f) => f.kind === 'duplicate-delivery').length;
  scenario.faults.forEach((f, i) => {
    if ((f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'concurrent-call') && f.process >= workers) {
      fail(`faults[${i}].process`, `is ${f.process}, but the scenario has ${workers} worker(s)`, 'Crash worker 0, or add a duplicate-delivery fault that starts another worker.');
    }
  });
  scenario.faults.forEach((f, i) => {
    if (f.kind === 'store-call' && f.fault === 'stale-read' && scenario.store.consistency !== 'stale-reads') {
      fail(`faults[${i}].fault`, 'is stale-read, but the store is linearizable', 'Set "store": { "consistency": "stale-reads" } to allow stale reads.');
    }
  });
  return scenario;
}

/** Every path the scenario names: initial files, edited files, files the user saves. */
function scenarioPaths(scenario: Scenario): string[] {
  const ops = [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])];
  return [...new Set([...Object.keys(scenario.files), ...ops.flatMap((op) => (op.kind === 'edit' ? [op.path] : [])), ...scenario.faults.flatMap((f) => (f.kind === 'user-edit' ? [f.path] : []))])];
}

/**
 * A scenario file's text, parsed (parseJsonText: its nesting bounded, every key once, a byte-order
 * mark skipped) and validated; `json` is the file's whole value, for what durasim recorded beside
 * the scenario (its journal, its regression block). Bad JSON gets the same house-style message.
 */
export function parseScenarioDocument(text: string): { scenario: Scenario; json: Record<string, Json> } {
  if (text.length > SCENARIO_LIMITS.fileChars) fail('the file', `is ${text.length} characters long, over the limit of ${SCENARIO_LIMITS.fileChars}`, 'A scenario is a test case: shorten its texts and lists.');
  let value: Json;
  try {
    value = parseJsonText(text);
  } catch (error) {
    fail('the file', error instanceof JsonTextError ? error.message : String(error));
  }
  const scenario = parseScenario(value);
  return { scenario, json: value as Record<string, Json> };
}

/** Parses scenario file text; bad JSON gets the same house-style message. */
export function parseScenarioText(text: string): Scenario {
  return parseScenarioDocument(text).scenario;
}

function parseAccessToken(value: Json | undefined): { accessToken?: { canary: number } } {
  if (value === undefined) return {};
  if (!isRecord(value)) fail('task.accessToken', `must be an object, found ${describe(value)}`, 'Write "accessToken": { "canary": N }: the token is derived from N, so the file never holds it.');
  strict(value, 'task.accessToken', ['canary'], ['canary']);
  return { accessToken: { canary: int(value.canary, 'task.accessToken.canary') } };
}

function parseTemp(value: Json | undefined): { temp?: TempFolder } {
  if (value === undefined) return {};
  if (!isRecord(value)) fail('task.temp', `must be an object, found ${describe(value)}`, 'Write "temp": { "dir": "tmp", "retentionMs": 0 }.');
  strict(value, 'task.temp', ['dir', 'retentionMs'], ['dir', 'retentionMs']);
  return { temp: { dir: relativePath(value.dir, 'task.temp.dir'), retentionMs: int(value.retentionMs, 'task.temp.retentionMs') } };
}

function parseRetryBudget(value: Json | undefined): { retryBudget?: RetryBudget } {
  if (value === undefined) return {};
  if (!isRecord(value)) fail('task.retryBudget', `must be an object, found ${describe(value)}`, 'Write "retryBudget": { "perOperation": N, "perTask": M }.');
  strict(value, 'task.retryBudget', ['perOperation', 'perTask'], ['perOperation', 'perTask']);
  return { retryBudget: { perOperation: int(value.perOperation, 'task.retryBudget.perOperation', 1), perTask: int(value.perTask, 'task.retryBudget.perTask', 1) } };
}

/** A scenario as it is saved: defaults dropped so the file reads as the story of the run. */
export function scenarioToJson(scenario: Scenario): Record<string, unknown> {
  const out: Record<string, unknown> = { $schema: SCENARIO_SCHEMA_URL, format: scenario.format, version: scenario.version };
  if (scenario.name !== undefined) out.name = scenario.name;
  if (scenario.description !== undefined) out.description = scenario.description;
  out.task = scenario.task;
  if (scenario.taskAfterRestart) out.taskAfterRestart = scenario.taskAfterRestart;
  if (Object.keys(scenario.files).length > 0) out.files = scenario.files;
  const service: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(scenario.service)) {
    const fallback = (DEFAULT_SERVICE as unknown as Record<string, unknown>)[key];
    if (JSON.stringify(value) !== JSON.stringify(fallback)) service[key] = value;
  }
  if (Object.keys(service).length > 0) out.service = service;
  const store = Object.fromEntries(Object.entries(scenario.store).filter(([key, value]) => value !== (DEFAULT_STORE as unknown as Record<string, unknown>)[key]));
  if (Object.keys(store).length > 0) out.store = store;
  if (scenario.faults.length > 0) out.faults = scenario.faults;
  if (scenario.schedule.length > 0) out.schedule = scenario.schedule;
  if (scenario.random.length > 0) out.random = scenario.random;
  if (Object.keys(scenario.environment).length > 0) out.environment = scenario.environment;
  if (scenario.restartDelayMs !== DEFAULT_RESTART_DELAY_MS) out.restartDelayMs = scenario.restartDelayMs;
  if (JSON.stringify(scenario.bounds) !== JSON.stringify(DEFAULT_BOUNDS)) out.bounds = scenario.bounds;
  return out;
}

/** Where a cancel of the task appears: a file in the work folder (see the cancel fault). */
export function cancelFileOf(taskId: string): string {
  return `${taskId}.cancel`;
}

/** The task incarnation `incarnation` is handed: the changed intent after a restart, if the scenario has one. */
export function taskFor(scenario: Scenario, incarnation: number): Task {
  const operations = incarnation > 0 && scenario.taskAfterRestart ? scenario.taskAfterRestart.operations : scenario.task.operations;
  return {
    id: scenario.task.id,
    operations: operations.map((op) => ({ ...op })),
    // Under a contract, a query counts when it can find an operation in doubt: by its key or a field of its request, not a receipt never heard.
    service: { url: serviceUrlOf(scenario), query: scenario.service.query && (scenario.service.contract?.queries.some((q) => q.by !== 'receipt') ?? true), idempotentReplay: keyMemoryOf(scenario.service) === 'durable' },
    ...(scenario.task.accessToken ? { accessToken: canaryOf(scenario.task.accessToken.canary) } : {}),
    ...(scenario.task.retryBudget ? { retryBudget: { ...scenario.task.retryBudget } } : {}),
    ...(scenario.task.temp ? { temp: { ...scenario.task.temp } } : {}),
    // A task that can be cancelled (under simulation: its scenario has a cancel) names where the cancel appears.
    ...(scenario.faults.some((f) => f.kind === 'cancel') ? { cancelFile: cancelFileOf(scenario.task.id) } : {}),
  };
}

/** The files the task edits or the user saves, sorted: the judge reads them at every crash and at the end. */
export function taskPaths(scenario: Scenario): string[] {
  const paths = new Set<string>();
  for (const op of [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])]) if (op.kind === 'edit') paths.add(op.path);
  for (const fault of scenario.faults) if (fault.kind === 'user-edit') paths.add(fault.path);
  return [...paths].sort();
}
