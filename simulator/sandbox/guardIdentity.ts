/**
 * Who the process is and how it was started, as a journal sees them: under its turn every one is
 * the simulated process's (simulatedMachine.ts PROCESS, served by the holder: the world answers
 * for the simulated machine, a real process (`durasim confirm`) with its own):
 * - process.getuid, geteuid, getgid, getegid, getgroups and umask (a umask it sets is its own);
 * - process.argv, execPath and execArgv (a value it assigns is its own; its incarnation's);
 * - node:worker_threads' isMainThread, threadId, parentPort, workerData and resourceLimits: a
 *   simulated process is its own main thread, so the pool worker's port and its heartbeat are out
 *   of its reach.
 * Outside a turn they are the real ones, but process.getuid and getgid: the simulator's own work
 * (memfs stamps every file it creates with them, and checks permissions against them) is the
 * simulated user's, on every host, so `fs.stat().uid` is the simulated machine's too. (They were
 * cached for memfs's sake before: the real ones cost a system call each.) In a closed thread
 * (turn.ts) that work runs where no turn holds: getuid and getgid are the simulated user's there
 * too; everything else is refused there. Returns restore callbacks.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { serveOrRefuse } from './guardFunction.js';
import { IDENTITY } from './simulatedMachine.js';
import { isNoTurn, turnHolder, type TurnHolder } from './turn.js';

type Restore = () => void;
type Fn = (...args: unknown[]) => unknown;

const SIMULATOR_IDENTITY: Record<string, number> = { getuid: IDENTITY.uid, getgid: IDENTITY.gid };

function serveMethod(name: string): Restore | undefined {
  const record = process as unknown as Record<string, unknown>;
  const original = record[name];
  if (typeof original !== 'function') return undefined;
  const outside = SIMULATOR_IDENTITY[name];
  record[name] = Object.assign(function identity(this: unknown, ...args: unknown[]): unknown {
    const holder = turnHolder();
    // The simulator's own disk work runs where no turn holds (in a closed thread, turn.ts's no-turn holder): the simulated user's too.
    if (holder === null || (outside !== undefined && isNoTurn(holder))) return outside ?? Reflect.apply(original as Fn, this, args);
    return serveOrRefuse(holder, `process.${name}`, () => Reflect.apply(original as Fn, this, args), args);
  }, original);
  return () => {
    record[name] = original;
  };
}

/** What an incarnation assigned to a served value (process.argv = …): its own, gone with it. */
const assigned = new WeakMap<TurnHolder, Map<string, unknown>>();

/** `target[name]`, a data property, served under a turn as `api`; an assignment under a turn stays with the incarnation. */
function serveValue(target: object, name: string, api: string): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (!descriptor?.configurable || !('value' in descriptor)) return undefined;
  let real = descriptor.value as unknown;
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? true,
    get() {
      const holder = turnHolder();
      if (holder === null) return real;
      const own = assigned.get(holder);
      return own?.has(name) ? own.get(name) : serveOrRefuse(holder, api, () => real);
    },
    set(value: unknown) {
      const holder = turnHolder();
      if (holder === null) real = value;
      else {
        let own = assigned.get(holder);
        if (own === undefined) assigned.set(holder, (own = new Map()));
        own.set(name, value);
      }
    },
  });
  return () => Object.defineProperty(target, name, { ...descriptor, value: real });
}

export function guardIdentity(): Restore[] {
  // Restored last (restores run from the end): durasim's own imports then read the real values again.
  const restores: Restore[] = [() => syncBuiltinESMExports()];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  for (const name of ['getuid', 'geteuid', 'getgid', 'getegid', 'getgroups', 'umask']) add(serveMethod(name));
  for (const name of ['argv', 'execPath', 'execArgv']) add(serveValue(process, name, `process.${name}`));
  const threads = createRequire(import.meta.url)('node:worker_threads') as object; // allow-ambient: guarded, not called
  for (const name of ['isMainThread', 'threadId', 'parentPort', 'workerData', 'resourceLimits']) add(serveValue(threads, name, `worker_threads.${name}`));
  // durasim's own imports of node:worker_threads read the getters outside any turn: the real values.
  syncBuiltinESMExports();
  return restores;
}
