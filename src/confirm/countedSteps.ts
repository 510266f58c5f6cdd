/**
 * Node's whole-file calls in a real worker, counted as the simulator counts them from scenario
 * format 2 on (simulator/node/served/fsSteps.ts): writeFile and appendFile through a path are made
 * as Node makes them — open (truncating for writeFile), write, close — each a real call and a
 * counted step, so a kill the scenario places between them lands there for real; copyFile opens
 * both files (the target created or truncated), copies, closes. A failed write still closes, then
 * the call fails with the write's error. Through a descriptor or a FileHandle the call is one step.
 * (A copy's rarer answers — a folder as source, one file under two names — are real open errors
 * here, where the simulator names copyfile; the files they leave are the same.)
 */
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { copyDetails, MULTI_STEP_VERSION, wholeFileDetails } from '../../simulator/node/served/fsSteps.js';
import { bytesOf, encodingOf, openFlags, optionOf } from '../../simulator/node/served/fsArgs.js';
import type { StepCounter } from './stepCounter.js';

type Kind = 'write' | 'append' | 'copy';
const KINDS: [string, Kind][] = [['writeFile', 'write'], ['appendFile', 'append'], ['copyFile', 'copy']];
/** The served names of the calls the simulator splits, in the three APIs. */
const WHOLE = new Map<string, Kind>(KINDS.flatMap(([call, kind]): [string, Kind][] => [[`fs.${call}`, kind], [`fs.promises.${call}`, kind], [`fs.${call}Sync`, kind]]));

interface Plan {
  /** What the trace shows for each step. */
  open: string;
  write: string;
  close: string;
  flag: string;
  mode: number | undefined;
  /** Where a copy reads from (at its open). */
  source?: string;
  target: string;
  /** The bytes to write; a copy's are read at its open. */
  bytes: Buffer;
  /** Whether the write is a step: a copy always copies; writeFile and appendFile make no write for no bytes. */
  writes: boolean;
}

/** The call's plan, when it is one the simulator splits; undefined where it is one step (a descriptor or FileHandle target). */
function planOf(kind: Kind, args: readonly unknown[], nameOf: (path: unknown) => string): Plan | undefined {
  const [first, second, third] = args;
  if (typeof first !== 'string' && !(first instanceof URL) && !Buffer.isBuffer(first)) return undefined;
  const pathOf = (value: unknown): string => (value instanceof URL ? decodeURIComponent(value.pathname) : String(value));
  if (kind === 'copy') {
    const shown = `${nameOf(pathOf(first))} → ${nameOf(pathOf(second))}`;
    const exclusive = (Number(third ?? 0) & constants.COPYFILE_EXCL) !== 0;
    return { ...copyDetails(shown), flag: exclusive ? 'wx' : 'w', mode: undefined, source: pathOf(first), target: pathOf(second), bytes: Buffer.alloc(0), writes: true };
  }
  const bytes = bytesOf(second, encodingOf(third));
  const flag = openFlags(optionOf(third, 'flag', undefined), kind === 'append' ? 'a' : 'w');
  const mode = optionOf<unknown>(third, 'mode', undefined);
  const name = nameOf(pathOf(first));
  return { ...wholeFileDetails(name, flag, bytes), flag, mode: mode === undefined ? undefined : Number(mode), target: pathOf(first), bytes, writes: bytes.length > 0 };
}

/** What countedWholeFile answers for a call the simulator makes one step. */
export const NOT_SPLIT = Symbol('not split');

/**
 * The counted steps of `api` made for real, and what the call returns (undefined, or a promise);
 * NOT_SPLIT when the simulator makes it one step (format 1, a descriptor or FileHandle target, or
 * another call).
 */
export function countedWholeFile(counter: StepCounter, version: number, api: string, args: readonly unknown[], nameOf: (path: unknown) => string, op = api): unknown {
  const kind = WHOLE.get(api);
  if (kind === undefined || version < MULTI_STEP_VERSION) return NOT_SPLIT;
  const callback = api.startsWith('fs.promises.') || api.endsWith('Sync') ? undefined : args[args.length - 1];
  const plan = planOf(kind, callback === undefined ? args : args.slice(0, -1), nameOf);
  if (plan === undefined) return NOT_SPLIT;
  if (api.endsWith('Sync')) {
    let fd = -1;
    counter.atomic(op, plan.open, () => {
      if (plan.source !== undefined) plan.bytes = readFileSync(plan.source);
      fd = openSync(plan.target, plan.flag, plan.mode);
    });
    let failure: { error: unknown } | undefined;
    if (plan.writes) {
      try {
        counter.atomic(op, plan.write, () => {
          for (let at = 0; at < plan.bytes.length; ) at += writeSync(fd, plan.bytes, at, plan.bytes.length - at);
        });
      } catch (error) {
        failure = { error };
      }
    }
    try {
      counter.atomic(op, plan.close, () => closeSync(fd));
    } catch (error) {
      if (failure === undefined) throw error;
    }
    if (failure) throw failure.error;
    return undefined;
  }
  const made = (async (): Promise<undefined> => {
    let handle: FileHandle | undefined;
    await counter.scheduled(op, plan.open, async () => {
      if (plan.source !== undefined) plan.bytes = await readFile(plan.source);
      handle = await open(plan.target, plan.flag, plan.mode);
    });
    let failure: { error: unknown } | undefined;
    if (plan.writes) {
      try {
        await counter.scheduled(op, plan.write, async () => {
          for (let at = 0; at < plan.bytes.length; ) at += (await (handle as FileHandle).write(plan.bytes, at, plan.bytes.length - at)).bytesWritten;
        });
      } catch (error) {
        failure = { error };
      }
    }
    try {
      await counter.scheduled(op, plan.close, () => (handle as FileHandle).close());
    } catch (error) {
      if (failure === undefined) throw error;
    }
    if (failure) throw failure.error;
    return undefined;
  })();
  if (typeof callback !== 'function') return made;
  made.then(
    () => (callback as (error: unknown) => void)(null),
    (error: unknown) => (callback as (error: unknown) => void)(error),
  );
  return undefined;
}
