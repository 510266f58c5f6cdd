/**
 * What the parent of a confirmation run and its worker processes say to each other. The parent
 * starts a worker with a WorkerStart (as its one argument); before each scheduled step (an env
 * call, or an asynchronous Node call) the worker asks and waits for "go", so the parent can place
 * the scenario's events (user saves, duplicate deliveries, service restarts) between steps. What
 * happened — every step, the crash the worker put itself to death at, the error it ended with — the
 * worker appends synchronously to its side file, one JSON line each, so nothing is lost to a SIGKILL.
 * The parent grants one step at a time, as the simulator's scheduler does: only when no worker runs
 * (a worker runs from its start, or the completion of its step, until it asks again or exits),
 * choosing among the asking workers by the scenario's schedule.
 */
import type { Fault } from '../../simulator/scenario/scenario.js';
import type { Task } from '../../model/contract/contract.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';

export interface WorkerStart {
  /** A JSON file holding the journal's bundle (isolation/bundleJournal.ts), evaluated in the worker as the pool evaluates it. */
  bundleFile: string;
  /** durasim's index module, which the bundle's `durasim` imports resolve to. */
  durasimIndex: string;
  task: Task;
  pid: number;
  incarnation: number;
  /** The task's files live here (the worker's cwd). */
  dir: string;
  /** Where the worker appends its SideLines. */
  sideFile: string;
  /** The scenario's faults: the worker finds its own crashes among them (machine crashes too when `machineCrashes`). */
  faults: Fault[];
  /** The scenario's format version: the world's rules its steps are counted by (whole-file calls split from 2 on). */
  version: number;
  /** The scenario's random draws (env.random, Math.random, crypto.randomInt). */
  random: number[];
  /** Whether the worker carries out machine crashes (the parent runs it traced and builds the crash image); else process kills only. */
  machineCrashes: boolean;
  /** The shared store the parent serves (storeServer.ts), and how long a call waits for its answer. */
  store?: { url: string; timeoutMs: number };
  /** The scenario's service contract, when it names one: a fetch step names the key a request carries outside its path, as simulated. */
  contract?: ServiceContract;
  /**
   * The module graph the parent runs (src/pool/loadedGraph.ts), when it runs one: the worker loads that file without
   * digesting durasim's sources again to name it — some 1,100 file calls at every boot, each stopped by strace.
   */
  graphFile?: string;
}

export type SideLine =
  /** `call`: the call of run() that took it, when not the first (a concurrent call: 1). */
  | { type: 'step'; step: number; op: string; detail: string; call?: number }
  | { type: 'result'; step: number; op: string; note: string }
  /** `fault`: its index in the scenario's faults; a crash whose mode is not keep-all is a machine crash, which the parent carries on. */
  | { type: 'crash'; step: number; when: 'before' | 'after'; op: string; fault: number; mode: string }
  /** A second call of run() (a concurrent call) failed: that request's answer; the process goes on. */
  | { type: 'call-failed'; error: string }
  /** At its boot, before the journal's first step: the native addon the journal imports (better-sqlite3) did not load on this Node; the process exits, and the parent stops the run (nativeAddonFailure.ts). */
  | { type: 'addon-failed'; module: string; error: string }
  | { type: 'exit'; error?: string };

/**
 * hello: the worker's own pid, first (under strace the parent's child is strace); ask: a scheduled
 * step waits for "go" (asks are granted in the order they came: a process serving two calls may
 * have two); pause: the step granted, the worker freezes for `ms` before it takes effect (the
 * scenario's pause: others run meanwhile), and resumed when it does; done: the step completed, and
 * its call runs on until its next ask. returned: one of several calls of run() returned, the others
 * go on; ending: the last returned (what is left is the process's end: 'beforeExit' listeners, then
 * exit); refused: a concurrent call came when no call was under way, and nothing happened. idle
 * (only while two or more calls are under way): every call is blocked — on an ask, the world, or
 * another call — after the parent's first `seen` messages.
 */
export type FromWorker =
  | { type: 'ask'; op: string; detail: string }
  | { type: 'pause'; step: number; op: string; ms: number }
  | { type: 'resumed'; op: string }
  | { type: 'done'; op: string }
  | { type: 'hello'; pid: number }
  | { type: 'returned' }
  | { type: 'ending' }
  | { type: 'refused' }
  | { type: 'idle'; seen: number };
/** Steps whose call waits on the world once granted (a request, a sleep): the worker is blocked from the grant on. A store call waits too, once it reached the store. */
export const WAITS = new Set(['fetch', 'clock.sleep']);

/** go: the first waiting ask may take its step; call-again: a concurrent call, a second call of run() in this process (its module memory and env shared). */
export type ToWorker = { type: 'go' } | { type: 'call-again' };
