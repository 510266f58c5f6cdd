/**
 * fast-check arbitraries of scenarios.
 *
 * Shaped for shrinking: fault lists shrink by removal, every number shrinks toward 0 (the start
 * of the run, the first request, the first incarnation), every choice toward its boring default
 * (keep-all crashes, durable memory, query offered, lowest pid first), the task toward fewer
 * operations, and each fault family can be switched off whole (swarm testing: every run draws its
 * own mix, so some runs hammer one fault and others combine several).
 */
import type { OperationKind, TaskFeature } from './taskShape.js';
import fc from 'fast-check';
import type { Operation } from '../model/contract/contract.js';
import { CRASH_MODES, CRASH_TAILS, EVENT_ANCHOR_VERSION, STORE_CALL_FAULTS, RESPONSE_FAULTS, FAILURE_CLASS_FAULTS, type Fault, type Scenario, type ScenarioBounds } from '../simulator/scenario/scenario.js';
import type { ServiceContract } from '../simulator/contract/contract.js';
import { changedIntent, structuredBody } from './changedIntent.js';
import { anchorDrawsArbitrary, placeFaults } from './anchorDraws.js';
import { DEFAULT_FAULT_KINDS, type FaultKind } from './faultKinds.js';
import { baseScenario, keepTempFiles, planFromInput, STANDARD_OPERATIONS } from './standardWorkload.js';

export { CALLS, DEFAULT_FAULT_KINDS, defaultFaultKinds, FAULT_KINDS, type Calls, type FaultKind } from './faultKinds.js';
export { baseScenario, featuredScenario, STANDARD_FILES, STANDARD_OPERATIONS, STANDARD_RESOURCES, TEMP_DIR } from './standardWorkload.js';

export { OPERATION_KINDS, TASK_FEATURES, type OperationKind, type TaskFeature } from './taskShape.js';

export interface ScenarioArbitraryOptions {
  /** Fault families to draw from (default: DEFAULT_FAULT_KINDS, all). Each run enables a random subset of them. */
  faults?: readonly FaultKind[];
  /** Draw every listed family in every run instead of a random subset. */
  swarm?: boolean;
  maxCrashes?: number;
  maxResponseFaults?: number;
  maxUserEdits?: number;
  maxIoErrors?: number;
  /** Global steps within which timed faults (user edits, restarts, duplicates) land. */
  stepHorizon?: number;
  /** Per-incarnation steps within which crashes land. */
  crashStepHorizon?: number;
  /** Always run the whole standard workload instead of a drawn subset of it. */
  allOperations?: boolean;
  /** The journal's environment in every scenario (process.env), as `check --env NAME=VALUE` gives it. */
  environment?: Readonly<Record<string, string>>;
  /** Bounds set for every scenario (`--max-steps` and its siblings, the config's "bounds"), over the defaults or the task's. */
  bounds?: Readonly<Partial<ScenarioBounds>>;
  /** The user's own API (the config's "service"): every scenario's service speaks it; one with a key time-to-live also draws pauses past it. */
  contract?: ServiceContract;
  /** The operation kinds the journal supports (default: all): the standard workload's others are never drawn. */
  operations?: readonly OperationKind[];
  /** The task features a run may carry (default: all); one left out is never drawn. */
  features?: readonly TaskFeature[];
  /**
   * The user's own task to vary, from a scenario-format file: its task, files, service, store,
   * environment and bounds replace the standard workload's; its faults, schedule and draws are not
   * used (the runs draw their own). Its operations are drawn as the standard ones are.
   */
  task?: Scenario;
}

/** The operations a generated run draws from: the user's task's, or the standard workload's of the supported kinds. */
/**
 * The key memories a run's service may be drawn with under the `service-restart` family. Without a contract
 * (durasim's own protocol, which promises nothing of its keys) durable, volatile or none. Under a contract its
 * `memory` is what the user's service promises: durable or a time-to-live is kept across a service restart — it
 * is never drawn forgetting keys at one (volatile) or keeping none, which would blame a worker for relying on a
 * promise its service makes (a same-key re-send in doubt, as the IETF draft and the payments APIs intend); a
 * contract that says `volatile` or `none` is that itself, whatever the scenario's field says (keyMemoryOf).
 */
export function drawnKeyMemories(options: Pick<ScenarioArbitraryOptions, 'contract' | 'task'>): readonly ('durable' | 'volatile' | 'none')[] {
  const contract = contractOf(options);
  if (contract === undefined) return ['durable', 'volatile', 'none'];
  const promised = contract.memory;
  return promised === 'durable' || typeof promised === 'object' ? ['durable'] : ['durable', 'volatile'];
}

/** The contract the runs' service speaks: the config's, or else the one the user's task file names. */
export function contractOf(options: Pick<ScenarioArbitraryOptions, 'contract' | 'task'>): ServiceContract | undefined {
  return options.contract ?? options.task?.service.contract;
}

export function workloadOf(options: Pick<ScenarioArbitraryOptions, 'operations' | 'task'>): readonly Operation[] {
  const all = options.task?.task.operations ?? STANDARD_OPERATIONS;
  const kinds = options.operations;
  return kinds === undefined ? all : all.filter((op) => kinds.includes(op.kind));
}

/** A fault-free scenario of these operations on the user's task (its files, service, store, environment, bounds), or on the standard one. */
function startingPoint(operations: readonly Operation[], task: Scenario | undefined): Scenario {
  if (task === undefined) return baseScenario(operations);
  const scenario = structuredClone(task);
  scenario.task.operations = operations.map((op) => structuredClone(op));
  scenario.faults = [];
  scenario.schedule = [];
  scenario.random = [];
  return scenario;
}

export function scenarioArbitrary(options: ScenarioArbitraryOptions = {}): fc.Arbitrary<Scenario> {
  const workload = workloadOf(options);
  if (workload.length === 0) throw new Error(`no operation of the kinds ${(options.operations ?? []).join(', ')} in the task`);
  const feature = (name: TaskFeature): boolean => options.features === undefined || options.features.includes(name);
  const kinds = new Set<FaultKind>(options.faults ?? DEFAULT_FAULT_KINDS);
  const stepHorizon = options.stepHorizon ?? 160;
  const crashHorizon = options.crashStepHorizon ?? 60;
  const has = (kind: FaultKind): boolean => kinds.has(kind);
  const contract = contractOf(options);
  const ttlMs = typeof contract?.memory === 'object' ? contract.memory.ttlMs : undefined;
  const enabled = (kind: FaultKind): fc.Arbitrary<boolean> => (!has(kind) ? fc.constant(false) : options.swarm === false ? fc.constant(true) : fc.boolean());
  // A family switched on draws at least one fault (switching the family off is how a run has none).
  const list = <T>(kind: FaultKind, item: fc.Arbitrary<T>, maxLength: number): fc.Arbitrary<T[]> => (has(kind) ? fc.array(item, { minLength: Math.min(1, maxLength), maxLength }) : fc.constant([]));

  // Small numbers first: most windows are in the first incarnation, among the first requests and file accesses.
  const mostlySmall = (small: number, max: number): fc.Arbitrary<number> => fc.oneof({ arbitrary: fc.nat({ max: small }), weight: 3 }, { arbitrary: fc.nat({ max }), weight: 1 });
  // Where a crash or an I/O error lands: a worker incarnation's step, mostly anchored to an operation's own
  // calls (its key or its file), so removing other operations keeps the fault in its window.
  const placement = {
    process: fc.nat({ max: 1 }),
    incarnation: mostlySmall(0, 2),
    step: fc.nat({ max: crashHorizon }),
    anchor: fc.option(fc.record({ operation: fc.nat({ max: workload.length - 1 }), byPath: fc.boolean(), occurrence: mostlySmall(3, 8) }), { freq: 3, nil: undefined }),
  };
  const crash = fc.record({
    ...placement,
    when: fc.constantFrom('before' as const, 'after' as const),
    mode: has('disk') ? fc.constantFrom(...CRASH_MODES) : fc.constant('keep-all' as const),
    tornKeepBytes: fc.nat({ max: 40 }),
    tail: fc.constantFrom(...CRASH_TAILS),
    // per-file: how many unsynced appends the log and the edited file keep (the rest of the files none).
    keep: fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 2 })),
  });
  const ioError = fc.record({ ...placement, error: fc.constantFrom('EIO' as const, 'ENOSPC' as const), writtenBytes: fc.nat({ max: 40 }) });
  const response = fc.record({
    request: mostlySmall(3, 10),
    // Mostly anchored to the n-th request about an operation's key (or its resource), as crashes are.
    anchor: fc.option(fc.record({ operation: fc.nat({ max: workload.length - 1 }), occurrence: mostlySmall(1, 5) }), { freq: 3, nil: undefined }),
    fault: fc.constantFrom(...RESPONSE_FAULTS),
    delayMs: fc.constantFrom(1000, 3000),
    commitDelayMs: fc.constantFrom(50, 500),
  });
  // Mostly anchored to the journal's own accesses to the file (the race windows), sometimes at any step.
  const when = fc.oneof(
    { arbitrary: fc.record({ afterAccess: mostlySmall(2, 12) }), weight: 3 },
    { arbitrary: fc.record({ atStep: fc.nat({ max: stepHorizon }) }), weight: 1 },
  );
  const userEdit = fc.record({ when, text: fc.constantFrom('# Notes\nuser line 1\n', '# Notes (edited)\n', 'user rewrote everything\n') });

  type CrashDraw = typeof crash extends fc.Arbitrary<infer T> ? T : never;
  return fc
    .record({
      // One switch per operation, shrinking toward off (none on means the first alone).
      include: fc.tuple(...workload.map(() => fc.boolean())),
      mix: fc.record({
        crash: enabled('crash'),
        response: enabled('response'),
        duplicate: enabled('duplicate'),
        user: enabled('user'),
        restart: enabled('service-restart'),
        io: enabled('io'),
        intent: enabled('intent'),
      }),
      crashes: list('crash', crash, options.maxCrashes ?? 3),
      /** A changed intent only matters after a restart: with no crash drawn, this one restarts worker 0. */
      intentCrash: has('intent') ? crash : fc.constant(undefined),
      responses: list('response', response, options.maxResponseFaults ?? 3),
      ioErrors: list('io', ioError, options.maxIoErrors ?? 2),
      userEdits: list('user', userEdit, options.maxUserEdits ?? 2),
      duplicateAt: fc.nat({ max: stepHorizon }),
      restartAt: fc.nat({ max: stepHorizon }),
      // Drawn on its own, not only with a restart: a volatile service may forget a key at any restart, and a
      // service with no idempotency keys ('none') turns every duplicate send into a second effect.
      // Half durable, shrinking toward it; a memory the contract rules out (drawnKeyMemories) is durable in its place, so the
      // draw takes one value of four whatever the contract, and leaves every other draw of a seed as it was.
      memory: has('service-restart')
        ? fc.constantFrom(...(['durable', 'volatile', 'none', 'durable'] as const).map((m) => (drawnKeyMemories(options).includes(m) ? m : ('durable' as const))))
        : fc.constant('durable' as const),
      // Most services answer a query by key; one that does not is the rarer case.
      query: fc.constantFrom(true, false, true, true),
      /** With a changed intent: another writer already registered the new body under the first key. */
      newIntentExists: fc.boolean(),
      schedule: fc.array(fc.nat({ max: 3 }), { maxLength: 8 }),
      random: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 3 }),
      // Last, so that adding it left every earlier draw of a seed as it was.
      store: has('store')
        ? fc.record({
            on: enabled('store'),
            calls: fc.array(fc.record({ call: mostlySmall(6, 40), fault: fc.constantFrom(...STORE_CALL_FAULTS) }), { maxLength: 3 }),
            restartAt: fc.option(fc.nat({ max: stepHorizon }), { freq: 2, nil: undefined }),
            clockSkewMs: fc.constantFrom(0, 0, 400, -400, 15_000, -15_000),
            // A worker frozen past a lease (GC, SIGSTOP, a migrated VM), placed as crashes are.
            pauses: fc.array(fc.record({ ...placement, pauseMs: fc.constantFrom(2_000, 12_000, 30_000) }), { maxLength: 2 }),
            takeover: fc.option(fc.record({ atStep: fc.nat({ max: stepHorizon }), holdMs: fc.constantFrom(2_000, 20_000) }), { freq: 3, nil: undefined }),
            // Someone else's projection lands in the store (an older build, a hand edit): it folds no
            // events the store holds, so a worker that reads it must quarantine the task. One run in four.
            projectionLie: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.record({ atStep: fc.nat({ max: stepHorizon }), events: fc.nat({ max: 4 }) }), weight: 1 }),
          })
        : fc.constant(undefined),
      // Half the tasks carry an access token (a canary, derived from this number): it must never be persisted.
      accessToken: fc.option(fc.nat({ max: 9_999 }), { freq: 2, nil: undefined }),
      // Failure classes (400, 403, 503, a reset after the commit) on an operation's n-th request, and a retry budget.
      failure: has('failure')
        ? fc.record({
            on: enabled('failure'),
            answers: fc.array(fc.record({ operation: fc.nat({ max: workload.length - 1 }), occurrence: mostlySmall(1, 4), fault: fc.constantFrom(...FAILURE_CLASS_FAULTS), retryAfterMs: fc.constantFrom(500, 2_000, 8_000) }), { minLength: 1, maxLength: 3 }),
            budget: fc.option(fc.record({ perOperation: fc.constantFrom(1, 2, 3, 5), perTask: fc.constantFrom(2, 4, 8) }), { freq: 2, nil: undefined }),
          })
        : fc.constant(undefined),
      // The user cancels the task (with the user family): one run in four of those.
      cancel: has('user') ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.record({ atStep: fc.nat({ max: stepHorizon }) }), weight: 1 }) : fc.constant(undefined),
      // The source the publishes were planned from changes (with the user family): one run in four of those.
      inputChange: has('user') ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.record({ atStep: fc.nat({ max: stepHorizon }), value: fc.constantFrom('v2', 'v3') }), weight: 1 }) : fc.constant(undefined),
      // Half the tasks keep temp files in a folder shared with other tasks: task-10's (a name that
      // starts with this task's id) and task-2's may be there already.
      temp: fc.option(fc.record({ retentionMs: fc.constantFrom(0, 500, 5_000), neighbours: fc.subarray(['prefix', 'other'] as const) }), { freq: 2, nil: undefined }),
      // Last, drawn only when named (a constant otherwise, which draws nothing): a second call of the
      // task in worker 0's running process, mostly early, where a check-then-claim has its window.
      concurrentAt: has('concurrent') ? fc.option(mostlySmall(12, stepHorizon), { freq: 4, nil: undefined }) : fc.constant(undefined),
      // Last again: with a failure class that must outlive the process drawn (a 503's wait, a 403's
      // pause), three times in four a kill of the first worker soon after the answer, anchored to the
      // key's calls (o calls past the failing send's, each send counted as three: its record, the
      // request, the answer's record) — the window where a journal that keeps the wait or the
      // pause in memory forgets it.
      afterFailureKill: has('failure') && has('crash') ? fc.option(fc.integer({ min: 1, max: 4 }), { freq: 4, nil: undefined }) : fc.constant(undefined),
      // Last again, drawn only for a contract whose service forgets a key after a time-to-live (with the
      // response family): two runs in three (nil is one in `freq`), a worker frozen past that time, so a late retry finds the key gone.
      pastKeyTtl: ttlMs !== undefined && has('response') ? fc.option(fc.record(placement), { freq: 3, nil: undefined }) : fc.constant(undefined),
      // Last again, drawn only when a publish's body is JSON or form-encoded (a constant otherwise, which draws
      // nothing): which of its values the intent family changes.
      intentPick: has('intent') && workload.some((op) => op.kind === 'publish' && structuredBody(op.body)) ? fc.nat() : fc.constant(0),
      // Last again (issue 52), drawn only when a fault that is no worker's step may be in play: where each lands, mostly
      // anchored to the n-th step that names a key or a step's kind, before or after it, half of them on what the run's
      // first anchored fault names (anchorDraws.ts).
      placements: has('duplicate') || has('service-restart') || has('user') || has('store') || has('concurrent') ? anchorDrawsArbitrary(workload.length) : fc.constant(undefined),
      // Last again: the concurrent family switched on or off per run, as every other family is (it is in the defaults now).
      concurrentOn: enabled('concurrent'),
    })
    .map(({ include, ...rest }) => {
      // A user's save needs a file the task edits: with user edits on, the edit is in the workload.
      const chosen = workload.filter((op, i) => include[i] || (op.kind === 'edit' && rest.mix.user && rest.userEdits.length > 0));
      const draw = { ...rest, operations: options.allOperations ? [...workload] : chosen.length > 0 ? chosen : workload.slice(0, 1) };
      const scenario = startingPoint(draw.operations, options.task);
      const faults: Fault[] = [];
      const workers = draw.mix.duplicate ? 2 : 1;
      const editPath = draw.operations.find((op) => op.kind === 'edit')?.path;
      // Where a crash or an I/O error lands: anchored to an operation's own calls (its key, or its file), or at a step number.
      const placed = (c: { step: number; anchor: { operation: number; byPath: boolean; occurrence: number } | undefined }): { step: number } | { at: { mentions: string; occurrence: number } } => {
        const target = c.anchor && (draw.operations.find((op) => op.key === workload[c.anchor?.operation ?? 0]?.key) ?? draw.operations[0]);
        return c.anchor && target ? { at: { mentions: target.kind === 'edit' && c.anchor.byPath ? target.path : target.key, occurrence: c.anchor.occurrence } } : { step: c.step };
      };
      const crashFault = (c: CrashDraw): Fault => {
        const fault: Fault = { kind: 'crash', process: c.process % workers, incarnation: c.incarnation, ...placed(c), when: c.when, mode: c.mode };
        if (c.mode === 'torn-tail' || c.mode === 'torn-write') {
          fault.tornKeepBytes = c.tornKeepBytes;
          if (c.tail !== 'cut') fault.tail = c.tail;
        }
        if (c.mode === 'per-file') {
          const keep = Object.fromEntries([['journal.jsonl', c.keep[0]], [editPath ?? '', c.keep[1]]].filter(([path, n]) => path !== '' && (n as number) > 0));
          if (Object.keys(keep).length > 0) fault.keep = keep;
        }
        return fault;
      };
      if (draw.mix.crash) for (const c of draw.crashes) faults.push(crashFault(c));
      if (draw.mix.intent && draw.intentCrash && !faults.some((f) => f.kind === 'crash')) faults.push(crashFault({ ...draw.intentCrash, process: 0, incarnation: 0 }));
      if (draw.mix.response) {
        for (const r of draw.responses) {
          const target = r.anchor && (draw.operations.find((op) => op.key === workload[r.anchor?.operation ?? 0]?.key) ?? draw.operations[0]);
          const subject = target?.kind === 'publish' ? target.key : target?.kind === 'lookup' ? target.resource : undefined;
          const which = r.anchor && subject !== undefined ? { at: { mentions: subject, occurrence: r.anchor.occurrence } } : { request: r.request };
          const fault: Fault = { kind: 'response', ...which, fault: r.fault };
          if (r.fault === 'delay') fault.delayMs = r.delayMs;
          if (r.fault === 'accept-later') fault.commitDelayMs = r.commitDelayMs;
          faults.push(fault);
        }
      }
      if (draw.mix.io) {
        for (const e of draw.ioErrors) {
          const fault: Fault = { kind: 'io-error', process: e.process % workers, incarnation: e.incarnation, ...placed(e), error: e.error };
          if (e.writtenBytes > 0) fault.writtenBytes = e.writtenBytes;
          faults.push(fault);
        }
      }
      if (draw.mix.user && editPath) {
        for (const u of draw.userEdits) {
          faults.push('atStep' in u.when ? { kind: 'user-edit', atStep: u.when.atStep, path: editPath, text: u.text } : { kind: 'user-edit', afterAccess: u.when.afterAccess, path: editPath, text: u.text });
        }
      }
      if (draw.mix.duplicate) faults.push({ kind: 'duplicate-delivery', atStep: draw.duplicateAt });
      if (draw.concurrentAt !== undefined && draw.concurrentOn) faults.push({ kind: 'concurrent-call', atStep: draw.concurrentAt, process: 0 });
      if (draw.mix.restart) faults.push({ kind: 'service-restart', atStep: draw.restartAt });
      scenario.faults = faults;
      scenario.service.idempotencyMemory = draw.memory;
      // A service without a query by key is drawn only where durasim stands for the service: a contract says
      // which queries the user's service has (none, or by the receipt alone, is its own case), and never
      // that a route it declares answers 405. The draw is still made, so a seed's other draws stay as they were.
      scenario.service.query = contract !== undefined ? true : draw.query;
      if (draw.mix.intent) {
        // In the body's own format: one JSON value or form field changed, plain text as it always was (changedIntent.ts).
        const changed = draw.operations.map((op) => (op.kind === 'publish' ? { ...op, body: changedIntent(op.body, { pick: draw.intentPick, contract, plainSuffix: ' (changed)' }) } : { ...op }));
        scenario.taskAfterRestart = { operations: changed };
        const first = changed.find((op) => op.kind === 'publish');
        if (draw.newIntentExists && first?.kind === 'publish') scenario.service.existing = [{ key: first.key, body: first.body }];
      }
      if (draw.store?.on) {
        for (const c of draw.store.calls) faults.push({ kind: 'store-call', call: c.call, fault: c.fault });
        if (draw.store.restartAt !== undefined) faults.push({ kind: 'store-restart', atStep: draw.store.restartAt });
        if (draw.store.takeover) faults.push({ kind: 'takeover', ...draw.store.takeover });
        const lie = draw.store.projectionLie;
        if (lie) faults.push({ kind: 'store-edit', atStep: lie.atStep, key: `${scenario.task.id ?? 'task-1'}/projection`, value: JSON.stringify({ events: lie.events, digest: '0'.repeat(64) }) });
        // Under a contract whose keys expire, a store's pause stays shorter than their time-to-live (a longer one is the response family's: faultFamilies.ts).
        for (const p of draw.store.pauses) faults.push({ kind: 'pause', process: p.process % workers, incarnation: p.incarnation, ...placed(p), pauseMs: ttlMs === undefined ? p.pauseMs : Math.max(1, Math.min(p.pauseMs, ttlMs - 1)) });
        // A durable store restarts (a database failover): a journal may keep its records there. A volatile
        // one loses them as a disk without fsync would; that is a scenario written on purpose (reports/seeds/).
        scenario.store = { ...scenario.store, clockSkewMs: draw.store.clockSkewMs };
        if (draw.store.calls.some((c) => c.fault === 'stale-read')) scenario.store.consistency = 'stale-reads';
      }
      if (draw.accessToken !== undefined && feature('token')) scenario.task.accessToken = { canary: draw.accessToken };
      if (draw.mix.user && draw.cancel && feature('cancel')) faults.push({ kind: 'cancel', atStep: draw.cancel.atStep });
      if (draw.mix.user && draw.inputChange && feature('input') && scenario.task.operations.some((op) => op.kind === 'publish')) {
        // Every publish was planned from config v1; the source moves on mid-run.
        planFromInput(scenario);
        faults.push({ kind: 'input-change', atStep: draw.inputChange.atStep, resource: 'config', value: draw.inputChange.value });
      }
      if (draw.failure?.on) {
        for (const a of draw.failure.answers) {
          const target = draw.operations.find((op) => op.key === workload[a.operation]?.key) ?? draw.operations[0];
          const subject = target?.kind === 'publish' ? target.key : target?.kind === 'lookup' ? target.resource : undefined;
          if (subject === undefined) continue;
          faults.push({ kind: 'response', at: { mentions: subject, occurrence: a.occurrence }, fault: a.fault, ...(a.fault === 'unavailable' ? { retryAfterMs: a.retryAfterMs } : {}) });
        }
        if (draw.failure.budget && feature('budget')) scenario.task.retryBudget = draw.failure.budget;
        // The answer most likely to land (its key's earliest request), on the operation it lands on (as above).
        const remembered = draw.afterFailureKill === undefined ? undefined : draw.failure.answers.filter((a) => a.fault === 'unavailable' || a.fault === 'permission-revoked').sort((a, b) => a.occurrence - b.occurrence)[0];
        const answered = remembered && (draw.operations.find((op) => op.key === workload[remembered.operation]?.key) ?? draw.operations[0]);
        const target = answered?.kind === 'publish' ? answered : undefined;
        if (remembered && target && draw.afterFailureKill !== undefined) {
          faults.push({ kind: 'crash', process: 0, incarnation: 0, at: { mentions: target.key, occurrence: 3 * remembered.occurrence + 1 + draw.afterFailureKill }, when: 'after', mode: 'keep-all' });
        }
      }
      if (draw.temp && feature('temp')) keepTempFiles(scenario, draw.temp.retentionMs, draw.temp.neighbours);
      if (workers > 1) scenario.schedule = draw.schedule;
      scenario.random = draw.random;
      if (options.environment) scenario.environment = { ...options.environment };
      if (options.bounds) scenario.bounds = { ...scenario.bounds, ...options.bounds };
      if (options.contract) scenario.service.contract = structuredClone(options.contract);
      if (draw.pastKeyTtl && ttlMs !== undefined) faults.push({ kind: 'pause', process: draw.pastKeyTtl.process % workers, incarnation: draw.pastKeyTtl.incarnation, ...placed(draw.pastKeyTtl), pauseMs: ttlMs + 1_000 });
      // A task of a format before anchors on every fault (a --task file of version 1 or 2) runs as its format allows:
      // its timed faults, pauses and store calls stay placed by number (the placements are drawn all the same, so the
      // rest of the draw is the same), and its runs are saved in its version, replaying under the rules it was made with.
      if (draw.placements && scenario.version >= EVENT_ANCHOR_VERSION) scenario.faults = placeFaults(faults, draw.placements, (i) => (draw.operations.find((op) => op.key === workload[i]?.key) ?? draw.operations[0])?.key ?? '');
      return scenario;
    });
}
