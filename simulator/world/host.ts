/**
 * What the world's neighbours may ask of it, declared below world.ts so that none of them imports
 * it (the arrows point one way): the scenario's events and the operator act on an EventHost; the
 * Node surface a journal sees (node/: env, the served Node APIs) takes steps on a StepHost. World
 * implements both.
 */
import type { DurabilityGap, Records } from '../../model/evidence.js';
import type { Disk } from '../disk/disk.js';
import type { Scenario } from '../scenario/scenario.js';
import type { BoundsInForce } from '../scenario/scenarioBounds.js';
import type { Network } from '../service/network.js';
import type { ServiceCore } from '../service/service.js';
import type { StoreCore } from '../store/store.js';
import type { VirtualClock, Timer } from './clock.js';
import type { CrashFault } from '../scenario/scenario.js';
import type { PendingStep, Proc } from './proc.js';
import type { CrashRecord, ExitRecord, StopReason } from './runRecords.js';
import type { Inspection } from './inspection.js';
import type { TraceEntry } from './trace.js';
import type { Turns } from './turns.js';
import type { ScenarioEvents } from '../scenario/scenarioEvents.js';
import type { SimulatorInvariantError } from '../invariant.js';

/** What every neighbour sees: the scenario, the clock, the disk, the service, the store, and the trace it adds to. */
export interface WorldCore {
  readonly scenario: Scenario;
  /** The bounds the run is held to (scenario/scenarioBounds.ts). */
  readonly bounds: BoundsInForce;
  /** Requests sent to hosts other than the service's: they never reached it (routed-requests). */
  readonly strayRequests: { seq: number; sender: string; method: string; url: string }[];
  /** Whether the run is cut as global step `globalStep` completes (SimulateOptions.cutAfterStep): it stops then, every worker with it. */
  cutsAfter(globalStep: number): boolean;
  readonly clock: VirtualClock;
  readonly disk: Disk;
  readonly service: ServiceCore;
  readonly store: StoreCore;
  readonly trace: readonly TraceEntry[];
  record(entry: Omit<TraceEntry, 'seq' | 'timeMs'>): void;
}

/** The trace entries of a worker's steps, made without a spread (the step path's). */
export interface StepRecorder {
  /** `call`: the call of run() taking it (0: the first). */
  recordStep(proc: Proc, step: number, globalStep: number, op: string, detail: string, call?: number): void;
  recordResult(proc: Proc, step: number, op: string, note: string): void;
}

/** What a scenario event (a user's save, a restart, a takeover, a duplicate delivery) acts on. */
export interface EventHost extends WorldCore {
  readonly procs: readonly Proc[];
  readonly userEdits: { seq: number; timeMs: number; path: string; text: string }[];
  /** Starts incarnation `incarnation` of worker `pid`. */
  spawn(pid: number, incarnation: number): void;
  /** A second call of run() in worker `pid`'s running incarnation (a concurrent-call). */
  callAgain(pid: number): void;
}

/** What the Node surface a journal sees takes its steps on. */
export interface StepHost extends WorldCore, StepRecorder {
  readonly network: Network;
  readonly turns: Turns;
  readonly arrivals: Map<number, { records: Records; unsynced?: string[]; gaps?: DurabilityGap[] }>;
  readonly stop: StopReason | null;
  /** A broken simulator invariant, once one broke: the run is stopping and nothing more is recorded. */
  readonly internalError: Error | null;
  /** Steps taken so far by every worker (an atomic step takes one). */
  globalStep: number;
  /** Random draws taken so far (the scenario's values are read in this order). */
  randomDraws: number;
  /** Queues a step of `proc`; it runs when granted. A dead process's calls never settle. */
  step<T>(proc: Proc, op: string, detail: string, start: PendingStep['start']): Promise<T>;
  /** A step that completes at once with `run()`'s value, or its error. */
  syncStep<T>(proc: Proc, op: string, detail: string, run: () => T): Promise<T>;
  /** A timer owned by `proc`: cancelled if it dies. */
  procTimer(proc: Proc, delayMs: number, label: string, fire: () => void, soon?: boolean): Timer;
  /** Keeps the bytes the journal wrote or sent for the payload hash. */
  notePayload(data: string | Uint8Array): void;
  /** The journal's records as its inspect() reads them from the durable or the visible image. */
  inspect(image: 'durable' | 'visible'): Records;
  /** The journal's records on the visible image, read for the judge's evidence only: undefined when inspect() threw (nothing is recorded of it). */
  peekVisible(): Records | undefined;
  /** The journal's records read from the durable image when a step changed it (a synchronous step's too: its caller may take the next at once). */
  observeDurable(): void;
  /** An uncaught exception (or unhandled rejection) of journal code: its listeners take it, else it ends the incarnation that last ran. */
  uncaught(error: unknown, origin?: 'uncaughtException' | 'unhandledRejection'): void;
  /** The scenario's faults at `proc`'s step `step`. */
  faultsFor(proc: Proc, step: number, op: string, detail: string): ReturnType<ScenarioEvents['faultsAt']>;
  beat(globalStep: number, proc: Proc | undefined, op: string): void;
  crash(proc: Proc, fault: CrashFault): void;
  haltAll(reason: StopReason): void;
  fail(error: SimulatorInvariantError): void;
}

/** What ending a process (processEnd.ts) acts on. */
export interface EndHost extends WorldCore {
  readonly turns: Turns;
  readonly exits: ExitRecord[];
  readonly masksSecrets: boolean;
  /** `proc` restarts as its next incarnation, within the bound. */
  scheduleRestart(proc: Proc): void;
}

/** What a crash (crashProcess.ts) acts on. */
export interface CrashHost extends EndHost {
  readonly procs: readonly Proc[];
  readonly crashes: CrashRecord[];
  /** The journal's inspect() on the disk's images, and the observed histories built from them. */
  readonly inspection: Inspection;
  /** The files the task edits or the user saves. */
  readonly paths: string[];
  readonly globalStep: number;
  beat(globalStep: number, proc: Proc | undefined, op: string): void;
}
