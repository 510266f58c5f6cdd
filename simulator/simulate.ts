/**
 * simulate(journal, scenario): runs a journal in the deterministic world described by the
 * scenario and returns everything a judge needs. It depends on nothing but its arguments: the
 * same journal and scenario give the same trace, every time.
 */
import type { DurabilityGap, ObservedHistories, ReceiptLoss, Records } from '../model/evidence.js';
import type { JournalAdapter } from '../model/contract/contract.js';
import { digestOf } from '../model/contract/digest.js';
import { checkStateNames, type StateNames } from '../model/stateNames.js';
import { intentOf } from './contract/classify.js';
import { atVirtualTime, chargeNoTurnTo, installAmbientGuard, NOT_SERVED, uninstallAmbientGuard, type Escape } from './sandbox/ambientGuard.js';
import { loadMsw, type Transport } from './service/network.js';
import type { Proc } from './world/proc.js';
import { parseScenario, taskFor, type Scenario } from './scenario/scenario.js';
import type { Effect, ServiceRequestRecord } from './service/service.js';
import { simulatedEnv } from './node/simEnv.js';
import { filesOn } from './world/inspection.js';
import { payloadDigest, traceHash, type TraceEntry } from './world/trace.js';
import { wholeCalls } from './world/wholeCalls.js';
import { maskSecrets } from '../model/contract/secret.js';
import type { CrashRecord, ExitRecord, StopReason } from './world/runRecords.js';
import type { DiskLaneState } from './disk/diskLane.js';
import { diskCallLines, type DiskCallLine } from './disk/diskCallLog.js';
import type { StoreCall, StoreCore } from './store/store.js';
import { World } from './world/world.js';
import { SecretWatch, type SecretSighting } from './disk/secretWatch.js';
import { serveCall } from './node/served/serveCall.js';
import { imageHost } from './sqlite/imageVfs.js';
import { releaseProcessSqlites } from './sqlite/connection.js';
import { servedDatabaseSync } from './sqlite/nodeSqlite.js';
import type { InspectServe } from './world/inspection.js';

/** inspect() may open the image's SQLite database through better-sqlite3 or node:sqlite (sqlite/imageVfs.ts); a confirmation's inspect() too (src/confirm/realInspection.ts). */
export const inspectServe: InspectServe = (api, image, args, newTarget) => (api === 'better-sqlite3.Database' ? imageHost(image) : api === 'sqlite.DatabaseSync' ? servedDatabaseSync(imageHost(image), args, newTarget) : NOT_SERVED);
import { TempWatch, type TempEvidence } from './disk/tempWatch.js';

export interface SimulateOptions {
  /** How env.fetch reaches the fake service: 'direct' (default, fast) or through msw's getResponse. */
  transport?: Transport;
  /**
   * A fresh instance of the journal's modules, evaluated at the start of every incarnation (and
   * once for inspect()), so module-level state dies with a crash as it does in a real process.
   * Without it the same `journal` object serves every incarnation.
   */
  fresh?: () => JournalAdapter;
  /**
   * Without `fresh`: an instance of the journal's modules for this run alone, evaluated when the run
   * starts (under inspect()'s turn) and shared by its incarnations and inspect(): no module memory
   * of one scenario reaches the next (a library's cache, its registry of temp files or locks).
   */
  perRun?: () => JournalAdapter;
  /** Called at every scheduling decision, with the step and the incarnation about to take it. */
  beat?: (globalStep: number, proc: Proc | undefined, op: string) => void;
  /** Also note the work folder's files, visible and durable, after every entry that changed them (`diskLane` in the result; for reports). */
  diskLane?: boolean;
  /** Also log what the journal's calls changed on the disk, per worker step (`diskCalls` in the result; what confirm compares with the real calls). */
  diskCalls?: boolean;
  /** Also keep the whole data of every step whose trace entry shows it cut short (`wholeCalls` in the result; for reports). */
  wholeCalls?: boolean;
  /** Also take a digest of the whole disk right after every crash (CrashRecord.imageDigest: how explore tells crash states apart). */
  crashDigests?: boolean;
  /** How the journal's console output is written down in the trace (the pool maps a logged stack to the journal's sources); as written without it. */
  outputText?: (text: string) => string;
  /**
   * Stop the run the moment global step `cutAfterStep` completes, before its worker hears of it:
   * how a run whose journal blocked its thread right after that step is judged up to there.
   */
  cutAfterStep?: number;
}

/** How many requests reached nothing: no route of the service took them, or they went to another host (only those that did). */
function requestsAstray(world: World): { unroutedRequests?: number; strayRequests?: number } {
  const unrouted = world.service.requests.filter((r) => r.route.kind === 'unknown').length;
  return { ...(unrouted > 0 ? { unroutedRequests: unrouted } : {}), ...(world.strayRequests.length > 0 ? { strayRequests: world.strayRequests.length } : {}) };
}

/** Per publish key of the task: the digest its body has under the service's intent rule (its contract's first effect route, or the raw body). */
function intentDigestsOf(scenario: Scenario): Record<string, string> {
  const route = scenario.service.contract?.effects[0];
  return Object.fromEntries(scenario.task.operations.flatMap((op) => (op.kind === 'publish' ? [[op.key, digestOf(route ? intentOf(route, op.body) : op.body)]] : [])));
}

export interface ServiceRequest extends ServiceRequestRecord {
  /** For POSTs and resource reads: the journal's records on the durable image when the request arrived. */
  recordsAtArrival?: Records;
  /** For a POST whose record was not durably dispatched: what only the page cache held then (a machine crash would have lost it). */
  unsyncedAtArrival?: string[];
  gapsAtArrival?: DurabilityGap[];
}

export interface SimulationResult {
  journal: string;
  scenario: Scenario;
  outcome: StopReason;
  trace: TraceEntry[];
  /** SHA-256 of the trace and of every byte the journal wrote or sent: traceHash(trace, payloadDigest). */
  traceHash: string;
  /** SHA-256 of every byte the journal wrote or sent, in order (the trace shows previews only). */
  payloadDigest: string;
  /** The service's ground truth: every effect ever committed (including those before the run). */
  effects: Effect[];
  requests: ServiceRequest[];
  crashes: CrashRecord[];
  exits: ExitRecord[];
  /** Calls that reached around env: the real clock, randomness, timers, disk, network, processes. */
  escapes: Escape[];
  userEdits: { seq: number; timeMs: number; path: string; text: string }[];
  /** Requests the journal sent to hosts other than the service's (routed-requests). */
  strayRequests: { seq: number; sender: string; method: string; url: string }[];
  /** The base URL the task names for the service (its contract's, or durasim's own). */
  serviceUrl: string;
  /** Per publish key: the digest of its task's body under the service's intent rule (the judge's intent for a record that keeps no digest). */
  intentDigests: Record<string, string>;
  /** The journal's own state names (JournalAdapter.states), when it has them: its records carry its words beside the model's states. */
  states?: StateNames;
  final: {
    /** Records on the durable image at the end. */
    durable: Records;
    /** Records on what processes saw at the end (page cache included). */
    visible: Records;
    /** Final visible content of every file the task edits or the user touched (undefined: missing). */
    files: Record<string, string | undefined>;
    /** The same files on the durable image at the end. */
    durableFiles: Record<string, string | undefined>;
  };
  /** Per key, the states durasim observed on the durable image after every change (and at crashes and the end). */
  observed: ObservedHistories;
  /** Receipts the durable records held that a later snapshot no longer showed (evidence-retained). */
  receiptLosses: ReceiptLoss[];
  /** Errors thrown by the journal's inspect(), which are journal bugs too. */
  inspectErrors: string[];
  /** What was wrong with inspect()'s answers (a record without a state, an unknown state name, a file record without its path): the adapter's bug, not a finding (exit 2). */
  inspectProblems: string[];
  /** The shared store's ground truth: every call that reached it, and its restarts. */
  store: { calls: StoreCall[]; restarts: StoreCore['restarts']; offsetMs: number };
  /** With a task that carries an access token: every place it landed on the disk or in the store (never the token itself). */
  secretSightings: SecretSighting[];
  /** With a task that keeps temp files (task.temp): the steps that touched other tasks' temp files, and what this task left there. */
  temp?: TempEvidence;
  /** With SimulateOptions.diskLane: the work folder's files after every entry that changed them. */
  diskLane?: DiskLaneState[];
  /** With SimulateOptions.diskCalls: every change the journal's calls made on the disk, per worker step. */
  diskCalls?: DiskCallLine[];
  /** With SimulateOptions.wholeCalls: per trace position, the detail of an entry whose data the trace cut short, with the whole data (world/wholeCalls.ts). */
  wholeCalls?: Record<number, string>;
  /** With SimulateOptions.diskCalls: the worker steps a call of run() other than a process's first took (a concurrent call), by trace position: its call, 1 for the second. */
  stepCalls?: Record<number, number>;
  /** unroutedRequests: requests no route of the service took; strayRequests: requests to other hosts (routed-requests); both absent when none. */
  stats: { steps: number; incarnations: number; virtualTimeMs: number; traceEntries: number; unroutedRequests?: number; strayRequests?: number };
}

let running: World | null = null;

/**
 * An unhandled rejection or uncaught exception while a simulation runs: the process that last ran
 * offers it to its own listeners, else it ends, as a real process would. False when no simulation
 * is running.
 */
export function reportUncaught(error: unknown, origin: 'uncaughtException' | 'unhandledRejection' = 'uncaughtException'): boolean {
  if (running === null) return false;
  running.uncaught(error, origin);
  return true;
}

export async function simulate(journal: JournalAdapter, scenarioInput: Scenario | unknown, options: SimulateOptions = {}): Promise<SimulationResult> {
  const scenario = parseScenario(scenarioInput);
  const states = checkStateNames(journal.states, `the journal "${journal.name}"`);
  if (options.transport === 'msw') await loadMsw();
  // The journal's process.exitCode is its own: whatever its last incarnation left, the exit code of the process durasim runs in is not the journal's.
  const exitCode = process.exitCode;
  installAmbientGuard();
  let world: World;
  let outcome: StopReason;
  let watch: SecretWatch | undefined;
  let tempWatch: TempWatch | undefined;
  try {
    world = new World(journal, scenario, { transport: options.transport ?? 'direct', makeEnv: simulatedEnv, serve: serveCall, inspectServe, ...(options.fresh ? { fresh: options.fresh } : options.perRun ? { perRun: options.perRun } : {}), ...(options.beat ? { beat: options.beat } : {}), ...(options.diskLane ? { diskLane: true } : {}), ...(options.crashDigests ? { crashDigests: true } : {}), ...(options.diskCalls ? { diskCalls: true } : {}), ...(options.outputText ? { outputText: options.outputText } : {}), ...(options.cutAfterStep !== undefined ? { cutAfterStep: options.cutAfterStep } : {}) });
    running = world;
    const charged = world;
    chargeNoTurnTo({ escape: (escape) => charged.recordNoTurnEscape(escape), nowMs: () => charged.clock.epochMs });
    watch = watchSecret(world, scenario);
    if (scenario.task.temp) tempWatch = world.disk.tempWatch = new TempWatch(scenario.task.temp.dir, Object.keys(scenario.files), () => stepAuthor(world));
    outcome = await world.run();
  } finally {
    running = null;
    chargeNoTurnTo(null);
    process.exitCode = exitCode;
    uninstallAmbientGuard();
  }
  // memfs stamps what the last reads touch: at the virtual time, as every step's work is.
  const endMs = world.clock.epochMs;
  const result: Omit<SimulationResult, 'traceHash' | 'payloadDigest'> = atVirtualTime(endMs, () => ({
    journal: journal.name,
    scenario,
    outcome,
    trace: world.trace,
    effects: world.service.effects,
    requests: world.service.requests.map((r) => {
      const arrival = world.arrivals.get(r.index);
      return { ...r, ...(arrival ? { recordsAtArrival: arrival.records } : {}), ...(arrival?.unsynced ? { unsyncedAtArrival: arrival.unsynced } : {}), ...(arrival?.gaps ? { gapsAtArrival: arrival.gaps } : {}) };
    }),
    crashes: world.crashes,
    exits: world.exits,
    escapes: world.escapes,
    userEdits: world.userEdits,
    strayRequests: world.strayRequests,
    serviceUrl: world.network.serviceUrl,
    intentDigests: intentDigestsOf(scenario),
    ...(states !== undefined ? { states } : {}),
    final: { ...world.inspection.observeBoth(world.trace.length - 1, false), files: filesOn(world.disk.liveView(), world.paths), durableFiles: filesOn(world.disk.durableView(), world.paths) },
    observed: world.inspection.observer.observed,
    receiptLosses: world.inspection.observer.receiptLosses,
    inspectErrors: world.inspection.errors,
    inspectProblems: world.inspection.malformed,
    store: { calls: world.store.calls, restarts: world.store.restarts, offsetMs: world.clock.epochMs - world.clock.nowMs + world.store.config.clockSkewMs },
    secretSightings: watch ? (watch.sawStore(world.store.calls), watch.sightings) : [],
    ...(tempWatch ? { temp: tempWatch.evidence(world.disk.liveFilePaths()) } : {}),
    ...(world.diskLane ? { diskLane: (world.diskLane.note(world.trace.length - 1), world.diskLane.states) } : {}),
    ...(world.diskCalls ? { diskCalls: diskCallLines(world.diskCalls) } : {}),
    ...(world.stepCalls ? { stepCalls: world.stepCalls } : {}),
    ...(options.wholeCalls ? { wholeCalls: wholeCalls(world.trace, world.payload, world.masksSecrets ? maskSecrets : (text) => text) } : {}),
    stats: { steps: world.globalStep, incarnations: world.incarnationsStarted, virtualTimeMs: world.clock.nowMs, traceEntries: world.trace.length, ...requestsAstray(world) },
  }));
  // Everything the result needs of the disk is read: its volume goes back to the thread's spares.
  atVirtualTime(endMs, () => world.disk.release());
  // No process of it runs any more: their SQLites go back to the thread, to be handed out again restored (sqlite/engine.ts).
  releaseProcessSqlites(world);
  return withLazyHashes(result, world.trace, world.payload);
}

/** Where a result keeps what its hashes are computed from, and the hashes once computed. */
const HASHED = Symbol('hashed');
interface Hashed {
  [HASHED]: { trace: readonly TraceEntry[]; parts: World['payload']; payload?: string; hash?: string };
}

function payloadDigestOf(this: Hashed): string {
  const state = this[HASHED];
  return (state.payload ??= payloadDigest(state.parts));
}

function traceHashOf(this: Hashed): string {
  const state = this[HASHED];
  return (state.hash ??= traceHash(state.trace, payloadDigestOf.call(this)));
}

/**
 * Hashing costs about 5% of a simulation and most callers never read it, so both hashes are
 * computed on first read, by getters shared by every result: what they hash sits on the result
 * under a symbol. V8 keeps an accessor's pair in the old generation, so a getter made per result
 * (a closure) kept what its scope held — the trace and the payload, once the whole world — alive
 * through every young collection until a full one.
 */
function withLazyHashes(result: Omit<SimulationResult, 'traceHash' | 'payloadDigest'>, trace: readonly TraceEntry[], parts: World['payload']): SimulationResult {
  Object.defineProperty(result, HASHED, { value: { trace, parts } });
  Object.defineProperty(result, 'payloadDigest', { enumerable: true, get: payloadDigestOf });
  return Object.defineProperty(result, 'traceHash', { enumerable: true, get: traceHashOf }) as SimulationResult;
}

/**
 * A task that carries an access token: the service wants it on every request, the trace and exit
 * messages show it masked, and the disk is watched for it (the store is read after the run).
 */
function watchSecret(world: World, scenario: Scenario): SecretWatch | undefined {
  const token = taskFor(scenario, 0).accessToken;
  if (token === undefined) return undefined;
  world.service.requireBearer(token);
  world.masksSecrets = true;
  return (world.disk.secretWatch = new SecretWatch(token, () => stepAuthor(world)));
}

/** The worker step being taken now (the last one traced): where it is and who takes it. */
function stepAuthor(world: World): { seq: number; by: string } {
  const step = world.trace.findLast((e) => e.step !== undefined && e.actor.startsWith('worker-'));
  return { seq: step?.seq ?? world.trace.length, by: step ? `${step.actor}#${step.incarnation ?? 0}` : 'unknown' };
}
