/** What simulate() hands the world (world.ts) beside the journal and the scenario: the transport, the Node surface a journal sees, and what to note along the way. */
import type { Env, JournalAdapter } from '../../model/contract/contract.js';
import type { Transport } from '../service/network.js';
import type { StepHost } from './host.js';
import type { Proc } from './proc.js';
import type { InspectServe } from './inspection.js';

export interface WorldOptions {
  transport: Transport;
  /** The env object an incarnation's run() is handed (node/simEnv.ts). */
  makeEnv: (world: StepHost, proc: Proc) => Env;
  /** The world's answer to a Node API the journal called (node/served/), or NOT_SERVED. */
  serve: (ctx: { world: StepHost; proc: Proc; call: number }, api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown) => unknown;
  /** What inspect() is served beyond the pure answers (a database on the image it reads: sqlite/imageVfs.ts), or NOT_SERVED. */
  inspectServe?: InspectServe;
  /** A fresh instance of the journal's modules, evaluated at every incarnation's start. */
  fresh?: () => JournalAdapter;
  /** Without `fresh`: an instance of the journal's modules for this run alone, shared by its incarnations and inspect(). */
  perRun?: () => JournalAdapter;
  /** Called at every scheduling decision: a sign of life for a watchdog outside the simulation. */
  beat?: (globalStep: number, proc: Proc | undefined, op: string) => void;
  diskLane?: boolean; // note the files, visible and durable, after each entry that changed them (diskLane.ts)
  diskCalls?: boolean; // log what the journal's calls change on the disk, with the worker step making them (diskCallLog.ts)
  crashDigests?: boolean; // take a digest of the whole disk right after every crash (CrashRecord.imageDigest)
  outputText?: (text: string) => string; // how the journal's console output is written down (SimulateOptions.outputText)
  cutAfterStep?: number; // stop the run as this global step completes, before its worker hears of it (SimulateOptions.cutAfterStep)
}
