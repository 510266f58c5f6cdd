/**
 * Simplifying a shrunk scenario with rewrites fast-check's shrink trees cannot make, because they
 * change the shape of the draw:
 * - two crashes merged into one machine crash (a process kill and a machine crash at nearby points
 *   often fail the same way as the machine crash alone), and any fault dropped once others are gone;
 * - an operation dropped with whatever names it (faults anchored to its key or path, effects
 *   that existed under its key), which fast-check's positional shrinking stops retrying once it
 *   has moved on to later fields; the changed intent after a restart dropped;
 * - toward the shortest story at the same number of faults: a crash anchored to an operation's key
 *   replaced by the loss of the response to that key's first request (the journal meets the same
 *   doubt without a restart), with the service's idempotency memory as it is or weaker, taken
 *   only when the trace gets shorter;
 * - each fault toward its least destructive form (milderScenarios), and its length of virtual time
 *   (a takeover's hold, a pause, a delay) and the task's temp files' retention halved when the
 *   trace gets shorter (shorterScenarios);
 * - the service without its query by key, taken only when the trace gets shorter (querylessScenarios):
 *   a journal in doubt polls the query for as long as its own patience lasts, and re-sends
 *   at once where there is none, so the same defect often shows in fewer steps;
 * - a crash placed by step number re-placed by the work it hits (anchoredScenarios; hunt.ts first
 *   anchors every numbered fault where it landed: anchorFaults.ts); an operation dropped takes the
 *   faults anchored to its names with it, and the faults anchored after its steps (or the temp
 *   folder's) tried 1–8 occurrences earlier;
 * - a lone operation of the run's workload other than its first replaced by the first;
 * - with a fault or an operation dropped, the faults timed by global step (a user's save, a
 *   duplicate delivery, a restart, a takeover, a cancel) also tried earlier — a little, or by
 *   halves: the work they came after may be what was dropped;
 * - with a crash dropped, the same worker's later faults moved one incarnation sooner; last, with an
 *   I/O error dropped too, or a kill made a lost answer, and the next incarnation's anchors shifted
 *   to where the incarnation that now goes on reaches them (soonerIncarnations.ts);
 * - the inputs the publishes were planned from dropped, with any change of their source;
 * - the task's temp folder dropped with the other tasks' files in it, or one of those files;
 * - one worker fewer: a duplicate worker's lone crash moved to the first worker, at a step of its own;
 *   or, taken when the trace gets shorter, the duplicate delivery made a kill of the first worker and
 *   the second worker's faults its restart's (secondWorkerAsRestart.ts);
 * - for anchored faults (reanchorScenarios.ts): a timed fault at an earlier occurrence or numbered
 *   at the first global steps, with a fault or an operation dropped; a fault anchored to a step's
 *   kind at an occurrence scaled to the operations left; a worker's fault anchored to a step's kind
 *   anchored to one of the task's names; an operation of the workload as an earlier one the task does
 *   not hold, its faults re-anchored to it;
 * Every rewrite taken makes (faults, steps) smaller, so it ends; the first that still fails wins.
 * Given the run's shape (runShape.ts), a rewrite that leaves it — an operation kind, a task feature,
 * a fault family or an idempotency memory the run does not draw — is never tried.
 */
import { DEFAULT_RESTART_DELAY_MS, type CrashFault, type Fault, type Scenario } from '../../simulator/scenario/scenario.js';
import type { Operation } from '../../model/contract/contract.js';
import { STANDARD_OPERATIONS } from '../arbitraries.js';
import { inRunShape, type RunShape } from './runShape.js';
import { earlierAnchored, earlierOccurrences, earlierOperations, fewerKindOccurrences, kindToNameAnchored, TIMED } from './reanchorScenarios.js';
import { secondWorkerAsRestart } from './secondWorkerAsRestart.js';
import { soonerIncarnations } from './soonerIncarnations.js';

export interface SimplifyResult {
  scenario: Scenario;
  attempts: number;
  steps: number;
}

/** Steps of the scenario's run when it still fails the same way, undefined when it does not. */
export type Measure = (scenario: Scenario) => Promise<number | undefined>;

/** Scenarios with one fault fewer than `scenario`, most promising first; then those with one fault milder. `workload`: the run's (its first is where a lone operation goes). */
export function simplerScenarios(scenario: Scenario, workload: readonly Operation[] = STANDARD_OPERATIONS): Scenario[] {
  const faults = scenario.faults;
  const without = (i: number, replace?: { at: number; fault: Fault }): Scenario => ({
    ...scenario,
    faults: faults.flatMap((f, k) => (k === i ? [] : replace && k === replace.at ? [replace.fault] : [f])),
  });
  const machine = (crash: CrashFault): CrashFault => (crash.mode === 'keep-all' ? { ...crash, mode: 'lose-unsynced' } : crash);
  const out: Scenario[] = [];
  const crashes = faults.flatMap((f, i) => (f.kind === 'crash' ? [i] : []));
  for (const i of crashes) {
    for (const j of crashes) {
      if (i === j) continue;
      // Keep crash j, as a machine crash, in place of both.
      out.push(without(i, { at: j, fault: machine(faults[j] as CrashFault) }));
    }
  }
  faults.forEach((_, i) => out.push(...withEarlier(without(i))));
  // A crash dropped: the worker's later crashes now come one incarnation sooner.
  for (const i of crashes) {
    const dropped = faults[i] as CrashFault;
    const later = (f: Fault): boolean => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'pause') && f.process === dropped.process && f.incarnation > dropped.incarnation;
    if (!faults.some(later)) continue;
    out.push(...withEarlier({ ...scenario, faults: faults.flatMap((f, k) => (k === i ? [] : later(f) ? [{ ...f, incarnation: (f as CrashFault).incarnation - 1 } as Fault] : [f])) }));
  }
  const operations = scenario.task.operations;
  if (operations.length > 1) {
    for (const op of operations) {
      const fewer = withoutOperation(scenario, op.key);
      // A fault anchored to a step's kind counted the dropped operation's steps of that kind too.
      // Its steps before an anchored fault are gone too: the same step is now an earlier occurrence (nearest first).
      out.push(...withEarlier(fewer), ...earlierOccurrences(fewer), ...fewerKindOccurrences(fewer, operations.length - 1, operations.length));
    }
  }
  // A lone operation of the standard workload other than the run's first: the run's first instead, as the draw's operation
  // switches shrink toward it (never on a user's own task, whose operations are not the standard ones, and never an
  // operation the run does not draw: `check --operations lookup` keeps its lookup).
  const first = workload[0];
  const asPlainText = (op: unknown): string => JSON.stringify({ ...(op as object), input: undefined });
  const standard = STANDARD_OPERATIONS.some((op) => asPlainText(op) === asPlainText(operations[0])) && workload.some((op) => asPlainText(op) === asPlainText(operations[0]));
  if (operations.length === 1 && first && standard && operations[0]?.key !== first.key && !scenario.taskAfterRestart) {
    out.push(...withEarlier({ ...scenario, task: { ...scenario.task, operations: [{ ...first }] } }));
  }
  // Any operation of the workload as an earlier one the task does not hold, its anchored faults re-anchored to it (reanchorScenarios.ts).
  for (const replaced of earlierOperations(scenario, workload)) out.push(...withEarlier(replaced));
  // The inputs the publishes were planned from, with the change of their source: both dropped together.
  if ([...operations, ...(scenario.taskAfterRestart?.operations ?? [])].some((op) => op.kind === 'publish' && op.input)) {
    const unplanned = (ops: Scenario['task']['operations']): Scenario['task']['operations'] => ops.map((op) => (op.kind === 'publish' && op.input ? (({ input: _, ...rest }) => rest)(op) : op));
    // The reads of the inputs are gone from the service's requests: a fault on the n-th request may now be on an earlier one.
    for (const fewer of [0, 1, 2, 3]) {
      out.push(...withEarlier({
        ...scenario,
        task: { ...scenario.task, operations: unplanned(operations) },
        ...(scenario.taskAfterRestart ? { taskAfterRestart: { operations: unplanned(scenario.taskAfterRestart.operations) } } : {}),
        faults: faults.filter((f) => f.kind !== 'input-change').map((f) => (f.kind === 'response' && f.request !== undefined ? { ...f, request: Math.max(0, f.request - fewer) } : f)),
      }));
    }
  }
  // The temp folder dropped with the other tasks' files in it (the staging and the cleanup's steps go), or just one of those files.
  const temp = scenario.task.temp;
  if (temp) {
    const { temp: _, ...task } = scenario.task;
    const outside = (path: string): boolean => !path.startsWith(`${temp.dir}/`);
    // Staging a publish's file mentioned its key once (its registration): faults anchored to a key may now hit an earlier mention.
    const keys = new Set(scenario.task.operations.map((op) => op.key));
    const sooner = (f: Fault, by: number): Fault => ('at' in f && f.at && keys.has(f.at.mentions) && f.kind !== 'response' && f.kind !== 'store-call' ? ({ ...f, at: { ...f.at, occurrence: Math.max(0, f.at.occurrence - by) } } as Fault) : f);
    const untemped = (by: number): Scenario => ({ ...scenario, task, files: Object.fromEntries(Object.entries(scenario.files).filter(([path]) => outside(path))), faults: faults.map((f) => sooner(f, by)) });
    for (const by of [0, 1, 2]) out.push(...withEarlier(untemped(by)));
    // A fault anchored to a step's kind (an fs.open, an fh.sync) counted the temp files' steps too.
    out.push(...earlierOccurrences(untemped(0)));
    for (const path of Object.keys(scenario.files).filter((p) => !outside(p))) out.push({ ...scenario, files: Object.fromEntries(Object.entries(scenario.files).filter(([p]) => p !== path)) });
  }
  // One worker fewer: a duplicate worker's crash, its only fault, as a crash of the first worker at a step of its own
  // (a coarse grid, earliest first; the anchoring rewrites refine it). A machine crash is the machine's, whoever takes it.
  const duplicates = faults.filter((f) => f.kind === 'duplicate-delivery');
  const second = faults.filter((f) => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'pause') && f.process === 1);
  const lone = duplicates.length === 1 && second.length === 1 && second[0]?.kind === 'crash' ? second[0] : undefined;
  if (lone) {
    const { at: _at, step: _step, ...crash } = lone;
    const others = faults.filter((f) => f !== lone && f.kind !== 'duplicate-delivery');
    for (let step = 10; step <= 150; step += 10) out.push({ ...scenario, faults: [...others, { ...crash, process: 0, incarnation: 0, step, when: 'after' }], schedule: [] });
  }
  // The intent change is a fault of its own: without it, every incarnation is handed the first intent.
  if (scenario.taskAfterRestart) {
    const { taskAfterRestart: _, ...unchanged } = scenario;
    out.push(unchanged);
  }
  // Last, a fault that ended an incarnation dropped (an I/O error too, not only a crash), its worker's later faults one
  // incarnation sooner and shifted to where the incarnation that now goes on reaches them (soonerIncarnations.ts).
  const sooner = faults.flatMap((f, i) => soonerIncarnations(faults, i).filter((_, n) => f.kind !== 'crash' || n > 0));
  return [...out, ...milderScenarios(scenario), ...anchoredScenarios(scenario), ...kindToNameAnchored(scenario), ...sooner.flatMap((list) => withEarlier({ ...scenario, faults: list }))];
}


/**
 * The scenario as it is, then with its step-timed faults a little earlier (2 to 24 steps: what a
 * dropped restart or operation took, such as the startup of an incarnation), then at a half, a
 * quarter, an eighth and a sixteenth of their steps.
 */
function withEarlier(scenario: Scenario): Scenario[] {
  const timed = scenario.faults.some((f) => TIMED.has(f.kind) && 'atStep' in f && (f.atStep ?? 0) > 1);
  // Anchored timed faults: at an earlier occurrence, or numbered at the first steps (reanchorScenarios.ts).
  if (!timed) return [scenario, ...earlierAnchored(scenario)];
  const moved = (at: (step: number) => number): Scenario => ({
    ...scenario,
    faults: scenario.faults.map((f) => (TIMED.has(f.kind) && 'atStep' in f && f.atStep !== undefined ? ({ ...f, atStep: Math.max(0, at(f.atStep)) } as Fault) : f)),
  });
  const nearer = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24].map((d) => moved((step) => step - d));
  return [scenario, ...nearer, ...[2, 4, 8, 16].map((divisor) => moved((step) => Math.floor(step / divisor))), ...earlierAnchored(scenario)];
}

/**
 * A crash placed by step number, placed instead by the work it hits: after or before an early call
 * that names one of the task's keys or paths. A numbered crash pins every operation before it (drop
 * one and the crash lands elsewhere); an anchored one lets the others go. Each turns one numbered
 * crash into an anchored one, so taking them ends.
 */
export function anchoredScenarios(scenario: Scenario): Scenario[] {
  const names = [...new Set(scenario.task.operations.flatMap((op) => (op.kind === 'edit' ? [op.key, op.path] : [op.key])))];
  return scenario.faults.flatMap((fault, i) => {
    if (fault.kind !== 'crash' || fault.step === undefined) return [];
    const { step: _, ...rest } = fault;
    const whens = fault.when === 'after' ? (['after', 'before'] as const) : (['before', 'after'] as const);
    // The first operations first: a crash in their work lets every later operation go.
    return names.flatMap((mentions) => whens.flatMap((when) => [0, 1, 2, 3].map((occurrence) => ({
      ...scenario,
      faults: scenario.faults.map((f, k) => (k === i ? ({ ...rest, when, at: { mentions, occurrence } } as Fault) : f)),
    }))));
  });
}

/**
 * Scenarios whose faults are each one notch less destructive: a torn or per-file machine crash →
 * lose-unsynced (torn-write → torn-tail first), a zero or garbage tail → cut, a short write → none.
 * Each lowers a fault's rank, so taking them ends.
 */
export function milderScenarios(scenario: Scenario): Scenario[] {
  const replaced = (i: number, fault: Fault): Scenario => ({ ...scenario, faults: scenario.faults.map((f, k) => (k === i ? fault : f)) });
  return scenario.faults.flatMap((fault, i) => {
    if (fault.kind === 'io-error' && fault.writtenBytes !== undefined) {
      const { writtenBytes: _, ...milder } = fault;
      return [replaced(i, milder as Fault)];
    }
    if (fault.kind !== 'crash') return [];
    if (fault.tail !== undefined) {
      const { tail: _, ...milder } = fault;
      return [replaced(i, milder as Fault)];
    }
    if (fault.mode === 'torn-write') return [replaced(i, { ...fault, mode: 'torn-tail' })];
    if (fault.mode === 'torn-tail' || fault.mode === 'per-file') {
      const { tornKeepBytes: _, keep: __, ...rest } = fault;
      return [replaced(i, { ...rest, mode: 'lose-unsynced' } as Fault)];
    }
    // A machine crash whose lost page cache the failure does not need is a process kill.
    if (fault.mode === 'lose-unsynced') return [replaced(i, { ...fault, mode: 'keep-all' })];
    return [];
  });
}

/** The scenario without one operation, and without the faults and effects that name it. */
function withoutOperation(scenario: Scenario, key: string): Scenario {
  const op = scenario.task.operations.find((o) => o.key === key);
  const names = new Set([key, ...(op?.kind === 'edit' ? [op.path] : []), ...(op?.kind === 'lookup' ? [op.resource] : [])]);
  const named = (f: Fault): boolean => f.kind !== 'store-call' && 'at' in f && f.at !== undefined && names.has(f.at.mentions);
  const out: Scenario = {
    ...scenario,
    task: { ...scenario.task, operations: scenario.task.operations.filter((o) => o.key !== key) },
    service: { ...scenario.service, existing: scenario.service.existing.filter((e) => e.key !== key) },
    faults: scenario.faults.filter((f) => !named(f) && !(f.kind === 'user-edit' && op?.kind === 'edit' && f.path === op.path)),
  };
  if (scenario.taskAfterRestart) out.taskAfterRestart = { operations: scenario.taskAfterRestart.operations.filter((o) => o.key !== key) };
  return out;
}

/** Scenarios with as many faults and perhaps a shorter trace: a keep-all crash on a key's work → the key's first response lost. */
export function gentlerScenarios(scenario: Scenario): Scenario[] {
  return [...respondedScenarios(scenario), ...soonerScenarios(scenario), ...shorterScenarios(scenario), ...querylessScenarios(scenario), ...respondedScenarios(scenario, true), ...secondWorkerAsRestart(scenario)];
}

/**
 * The service with no query by key (`service.query: false`, drawn in one run in four): a journal
 * that doubts an answer polls the query with backoff for as long as its own patience lasts before
 * it acts, and goes on at once where the service offers none — so a defect that does not hang on
 * the query (a budget counted in memory, a re-send after a crash) shows in fewer steps. Taken only
 * when the trace gets shorter, and never made again once taken (the query stays off).
 */
export function querylessScenarios(scenario: Scenario): Scenario[] {
  // Under a contract the user's service has the queries it declares: never rewritten away (arbitraries.ts draws none away either).
  return scenario.service.query && scenario.service.contract === undefined ? [{ ...scenario, service: { ...scenario.service, query: false } }] : [];
}

/** The virtual-time lengths a fault may carry: a takeover's hold, a pause, a response's delay or late commit, a Retry-After. */
const DURATIONS = ['holdMs', 'pauseMs', 'delayMs', 'commitDelayMs', 'retryAfterMs'] as const;

/**
 * Each fault's length of virtual time halved (a takeover held, a pause, a delay): a sweep places its
 * faults with the longest length that lands in the window, while a shorter one often shows the same
 * defect in fewer steps (fewer polls, fewer renewals). Taken only when the trace gets shorter.
 */
function shorterScenarios(scenario: Scenario): Scenario[] {
  // The task's temp files kept a shorter time before the cleanup takes them (fewer of its looks and waits).
  const temp = scenario.task.temp;
  const sooner = temp && temp.retentionMs > 0 ? [{ ...scenario, task: { ...scenario.task, temp: { ...temp, retentionMs: temp.retentionMs < 2 ? 0 : Math.floor(temp.retentionMs / 2) } } }] : [];
  return [...sooner, ...scenario.faults.flatMap((fault, i) => {
    const record = fault as unknown as Record<string, unknown>;
    return DURATIONS.flatMap((field) => {
      const ms = record[field];
      if (typeof ms !== 'number' || ms < 2) return [];
      const shorter = { ...fault, [field]: Math.floor(ms / 2) } as Fault;
      return [{ ...scenario, faults: scenario.faults.map((f, k) => (k === i ? shorter : f)) }];
    });
  })];
}

/**
 * A crash anchored to a key's request replaced by the loss of that request's response (the shorter story, same doubt).
 * `sooner`: instead, with the worker's faults of later incarnations moved into the one that now goes on (soonerIncarnations.ts).
 */
function respondedScenarios(scenario: Scenario, sooner = false): Scenario[] {
  const keys = new Set([...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])].filter((op) => op.kind === 'publish').map((op) => op.key));
  const memories = [...new Set([scenario.service.idempotencyMemory, 'volatile', 'none'] as const)];
  return scenario.faults.flatMap((fault, i) => {
    if (fault.kind !== 'crash' || fault.mode !== 'keep-all' || fault.at === undefined || !keys.has(fault.at.mentions)) return [];
    const lost: Fault = { kind: 'response', at: { mentions: fault.at.mentions, occurrence: 0 }, fault: 'drop-after-commit' };
    const lists = sooner ? soonerIncarnations(scenario.faults, i, lost) : [scenario.faults.map((f, k) => (k === i ? lost : f))];
    return lists.flatMap((faults) => memories.map((idempotencyMemory) => ({ ...scenario, service: { ...scenario.service, idempotencyMemory }, faults })));
  });
}

/**
 * Each fault timed by global step moved earlier — to step 1, a quarter, a half, one step sooner —
 * and the anchored ones at an earlier occurrence or numbered at the first steps (earlierAnchored),
 * taken only when the run gets shorter: fast-check shrinks a step number toward 0 but stops at the
 * first value that no longer fails, and the failure often comes back further down.
 */
function soonerScenarios(scenario: Scenario): Scenario[] {
  return [...scenario.faults.flatMap((fault, i) => {
    if (!TIMED.has(fault.kind) || !('atStep' in fault) || fault.atStep === undefined || fault.atStep <= 1) return [];
    const at = fault.atStep;
    return [...new Set([1, Math.floor(at / 4), Math.floor(at / 2), at - 1])].filter((s) => s >= 1 && s < at).map((atStep) => ({
      ...scenario,
      faults: scenario.faults.map((f, k) => (k === i ? ({ ...f, atStep } as Fault) : f)),
    }));
  }), ...earlierAnchored(scenario)];
}

/**
 * A long outage (a restart delay past the default: crashExplorer.ts) belongs to a crash: a rewrite that leaves none
 * restarts the worker as soon as any other (an I/O error's exit a day later would pass the bound the crash grew).
 */
function restartedSoon(candidate: Scenario): Scenario {
  return candidate.restartDelayMs > DEFAULT_RESTART_DELAY_MS && !candidate.faults.some((fault) => fault.kind === 'crash') ? { ...candidate, restartDelayMs: DEFAULT_RESTART_DELAY_MS } : candidate;
}

/** The outage dropped first (shrinking toward no fault): the worker back as soon as any other. */
function withoutOutage(scenario: Scenario): Scenario[] {
  return scenario.restartDelayMs > DEFAULT_RESTART_DELAY_MS ? [{ ...scenario, restartDelayMs: DEFAULT_RESTART_DELAY_MS }] : [];
}

/**
 * `stop`: the rewrites stop, the simplest scenario so far kept (an interrupted check). `shape`: the
 * run's (runShape.ts); a rewrite outside it is not tried (nor counted). Without one, the standard
 * workload's and anything goes.
 */
export async function simplifyScenario(scenario: Scenario, measure: Measure, options: { maxAttempts: number; shape?: RunShape; onProgress?: (attempts: number, steps: number, current: Scenario) => void; stop?: () => boolean }): Promise<SimplifyResult> {
  let current = scenario;
  let currentSteps: number | undefined;
  let attempts = 0;
  let steps = 0;
  const { shape } = options;
  const kept = (candidates: Scenario[]): Scenario[] => (shape === undefined ? candidates : candidates.filter((candidate) => inRunShape(candidate, shape))).map(restartedSoon);
  for (;;) {
    let next: Scenario | undefined;
    for (const candidate of kept([...withoutOutage(current), ...simplerScenarios(current, shape?.workload)])) {
      if (attempts >= options.maxAttempts || options.stop?.()) return { scenario: current, attempts, steps };
      attempts++;
      if ((await measure(candidate)) !== undefined) {
        next = candidate;
        break;
      }
    }
    if (next === undefined) {
      for (const candidate of kept(gentlerScenarios(current))) {
        if (attempts >= options.maxAttempts || options.stop?.()) return { scenario: current, attempts, steps };
        attempts++;
        currentSteps ??= await measure(current);
        const candidateSteps = await measure(candidate);
        if (candidateSteps !== undefined && currentSteps !== undefined && candidateSteps < currentSteps) {
          next = candidate;
          break;
        }
      }
    }
    if (next === undefined) return { scenario: current, attempts, steps };
    current = next;
    currentSteps = undefined;
    steps++;
    options.onProgress?.(attempts, steps, current);
  }
}
