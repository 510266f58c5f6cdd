/**
 * The standard workload the generated runs vary when the user names no task of their own: its
 * operations, files and resources, the fault-free scenario of it (baseScenario), the one with every
 * task feature (featuredScenario), and how a task gets those features.
 */
import type { Operation } from '../model/contract/contract.js';
import { DEFAULT_BOUNDS, DEFAULT_RESTART_DELAY_MS, DEFAULT_SERVICE, DEFAULT_STORE, SCENARIO_FORMAT, SCENARIO_VERSION, type Scenario } from '../simulator/scenario/scenario.js';

/** The standard workload: three publishes, one lookup, one guarded edit. */
export const STANDARD_OPERATIONS: readonly Operation[] = [
  { kind: 'publish', key: 'post-a', body: 'artifact a v1' },
  { kind: 'publish', key: 'post-b', body: 'artifact b v1' },
  { kind: 'publish', key: 'post-c', body: 'artifact c v1' },
  { kind: 'lookup', key: 'read-config', resource: 'config' },
  { kind: 'edit', key: 'edit-notes', path: 'notes.md', append: '- agent: published a, b and c\n' },
];
export const STANDARD_FILES: Readonly<Record<string, string>> = { 'notes.md': '# Notes\n' };
/** Where the generated tasks keep temp files, beside other tasks' (task.temp). */
export const TEMP_DIR = 'tmp';
export const STANDARD_RESOURCES: Readonly<Record<string, string>> = { config: 'v1' };

/** A fault-free scenario of the standard workload (or of the given operations), with just the files and resources they use. */
export function baseScenario(operations: readonly Operation[] = STANDARD_OPERATIONS): Scenario {
  const edits = operations.some((op) => op.kind === 'edit');
  const lookups = operations.some((op) => op.kind === 'lookup');
  return {
    format: SCENARIO_FORMAT,
    version: SCENARIO_VERSION,
    task: { id: 'task-1', operations: operations.map((op) => ({ ...op, ...(op.kind === 'publish' && op.input ? { input: { ...op.input } } : {}) })) },
    files: edits ? { ...STANDARD_FILES } : {},
    service: { ...DEFAULT_SERVICE, existing: [], resources: lookups ? { ...STANDARD_RESOURCES } : {} },
    store: { ...DEFAULT_STORE },
    faults: [],
    schedule: [],
    random: [],
    environment: {},
    restartDelayMs: DEFAULT_RESTART_DELAY_MS,
    bounds: { ...DEFAULT_BOUNDS },
  };
}

/**
 * The standard workload with every task feature a generated run may carry, and no faults: an access
 * token (a canary), a retry budget, publishes planned from a versioned input, and temp files in a
 * folder shared with two neighbours (one whose name starts with this task's id). What `explore`
 * starts from by default, so that every fault window of every feature is there to try.
 */
export function featuredScenario(): Scenario {
  const scenario = baseScenario();
  scenario.task.accessToken = { canary: 4242 };
  scenario.task.retryBudget = { perOperation: 3, perTask: 8 };
  planFromInput(scenario);
  keepTempFiles(scenario, 500, ['prefix', 'other']);
  return scenario;
}

/** Every publish (and its changed twin after a restart) planned from the standard config's version, which the service serves. */
export function planFromInput(scenario: Scenario): void {
  for (const op of [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])]) if (op.kind === 'publish') op.input = { resource: 'config', version: STANDARD_RESOURCES.config ?? 'v1' };
  scenario.service.resources = { ...STANDARD_RESOURCES, ...scenario.service.resources };
}

/** The task keeps temp files in a folder shared with other tasks: task-10's (a name that starts with this task's id, 'prefix') and task-2's ('other') may be there already. */
export function keepTempFiles(scenario: Scenario, retentionMs: number, neighbours: readonly ('prefix' | 'other')[]): void {
  scenario.task.temp = { dir: TEMP_DIR, retentionMs };
  for (const n of neighbours) scenario.files[n === 'prefix' ? `${TEMP_DIR}/${scenario.task.id}0.post-a.part` : `${TEMP_DIR}/task-2.index`] = n === 'prefix' ? "task-10's upload\n" : "task-2's index\n";
}
