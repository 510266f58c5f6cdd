/**
 * The process object as a journal sees it. Under a journal's turn:
 * - served by the simulated process: pid and ppid (a pid per incarnation), env (the scenario's
 *   environment, writes kept per incarnation), cwd() (the work dir), exit(code) (the incarnation
 *   ends, like a real exit), and process.on(...) and friends (kept on the simulated process: its
 *   'exit' and 'beforeExit' listeners run as Node runs them, on a clean end and never at a crash;
 *   it gets no signals);
 * - served by the world, not here (pureServe.ts, the world's serve): the clock (hrtime, hrtime.bigint,
 *   uptime: the virtual clock from the incarnation's start), cpuUsage and resourceUsage (zero);
 * - refused: the machine (memoryUsage, report, available memory, active resources), signals and process control (kill, abort, chdir,
 *   set*id), native code (binding, dlopen); an uncaught-exception capture callback is
 *   refused with the thread's channels (guardChannels.ts).
 * - kept: what it writes to stdout and stderr (console.log and friends), in the world's trace.
 * Outside a turn every call and read is the real one. Returns restore callbacks.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { guardProperty } from './guardFunction.js';
import { isJournalCode, isNoTurn, turnHolder, type ProcessListener } from './turn.js';

type Restore = () => void;

const REFUSED = [
  'hrtime', 'uptime', 'memoryUsage', 'cpuUsage', 'resourceUsage', 'constrainedMemory', 'availableMemory', 'getActiveResourcesInfo',
  'kill', 'abort', 'reallyExit', '_kill', 'chdir', 'setuid', 'setgid', 'seteuid', 'setegid', 'setgroups', 'initgroups', 'binding', '_linkedBinding', 'dlopen',
];
const LISTENER_METHODS = ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener', 'removeAllListeners'];

/** Thrown into the journal by a served process.exit(): the incarnation has ended; nothing after it counts. */
export class SimulatedExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code}): the simulated process has ended`);
    this.name = 'SimulatedExit';
  }
}

function serveValue(name: 'pid' | 'ppid', simulated: (pid: number) => number): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  if (!descriptor?.configurable || !('value' in descriptor)) return undefined;
  const real = descriptor.value as number;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? true,
    get: () => {
      const holder = turnHolder();
      return holder === null ? real : simulated(holder.simulated.pid);
    },
  });
  return () => Object.defineProperty(process, name, descriptor);
}

function serveMethod(name: string, served: (...args: unknown[]) => unknown): Restore | undefined {
  const record = process as unknown as Record<string, unknown>;
  const original = record[name];
  if (typeof original !== 'function') return undefined;
  record[name] = Object.assign(function processMethod(this: unknown, ...args: unknown[]) {
    return turnHolder() === null ? (original as (...a: unknown[]) => unknown).apply(this, args) : served(...args);
  }, original);
  return () => {
    record[name] = original;
  };
}

function serveEnv(): Restore {
  const real = process.env;
  const env = new Proxy(real, {
    get: (target, key) => (turnHolder()?.simulated.env ?? target)[key as string],
    set: (target, key, value) => {
      const holder = turnHolder();
      if (holder === null) return Reflect.set(target, key, value);
      holder.simulated.env[key as string] = String(value);
      return true;
    },
    has: (target, key) => key in (turnHolder()?.simulated.env ?? target),
    deleteProperty: (target, key) => {
      const holder = turnHolder();
      if (holder === null) return Reflect.deleteProperty(target, key);
      delete holder.simulated.env[key as string];
      return true;
    },
    ownKeys: (target) => {
      const holder = turnHolder();
      return holder === null ? Reflect.ownKeys(target) : Object.keys(holder.simulated.env);
    },
    getOwnPropertyDescriptor: (target, key) => {
      const holder = turnHolder();
      if (holder === null) return Reflect.getOwnPropertyDescriptor(target, key);
      const value = holder.simulated.env[key as string];
      return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
    // Defined, as set, in the simulated environment (with Node's rule); never frozen: the real one is durasim's.
    defineProperty: (target, key, descriptor) => {
      const holder = turnHolder();
      if (holder === null) return Reflect.defineProperty(target, key, descriptor);
      if (!('value' in descriptor) || descriptor.writable !== true || descriptor.enumerable !== true || descriptor.configurable !== true) {
        throw Object.assign(new TypeError("'process.env' only accepts a configurable, writable, and enumerable data descriptor"), { code: 'ERR_INVALID_OBJECT_DEFINE_PROPERTY' });
      }
      holder.simulated.env[key as string] = String(descriptor.value);
      return true;
    },
    preventExtensions: (target) => {
      if (turnHolder() !== null) throw new TypeError('Cannot freeze');
      return Reflect.preventExtensions(target);
    },
  });
  process.env = env;
  return () => {
    process.env = real;
  };
}

/**
 * process.on and friends: on a simulated process's own listeners, or (a holder that is a real
 * process, as `durasim confirm` runs one, keeps none) on the real process.
 */
function serveListeners(name: string): Restore | undefined {
  const record = process as unknown as Record<string, unknown>;
  const original = record[name];
  if (typeof original !== 'function') return undefined;
  record[name] = Object.assign(function processListeners(this: unknown, ...args: unknown[]) {
    const listeners = turnHolder()?.simulated.listeners;
    if (listeners === undefined) return (original as (...a: unknown[]) => unknown).apply(this, args);
    listenOn(listeners, name, args);
    return process;
  }, original);
  return () => {
    record[name] = original;
  };
}

/** process.on and friends on a simulated process's own listeners. */
function listenOn(listeners: Map<string, ProcessListener[]>, method: string, [event, fn]: unknown[]): void {
  const name = String(event);
  if (method === 'removeAllListeners') {
    if (event === undefined) listeners.clear();
    else listeners.delete(name);
    return;
  }
  if (typeof fn !== 'function') return;
  const list = listeners.get(name) ?? [];
  if (method === 'off' || method === 'removeListener') {
    const at = list.findLastIndex((l) => l.fn === fn);
    if (at >= 0) list.splice(at, 1);
    return;
  }
  const listener: ProcessListener = { fn: fn as ProcessListener['fn'], once: method === 'once' || method === 'prependOnceListener' };
  if (method.startsWith('prepend')) list.unshift(listener);
  else list.push(listener);
  listeners.set(name, list);
}

/**
 * process.stdout.write and process.stderr.write (console.log and friends write through them): under
 * a simulated process, its output, kept by the world (the trace); elsewhere the real write.
 */
function serveOutput(name: 'stdout' | 'stderr'): Restore | undefined {
  const stream = process[name] as unknown as Record<string, unknown> | undefined;
  const original = stream?.write;
  if (stream === undefined || typeof original !== 'function') return undefined;
  const own = Object.hasOwn(stream, 'write');
  stream.write = function write(this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const holder = turnHolder();
    if (holder?.output === undefined) return (original as (...a: unknown[]) => boolean).call(this, chunk, encoding, callback);
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8') : String(chunk);
    holder.output(name, text);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as (error?: Error | null) => void)(null));
    return true;
  };
  return () => {
    if (own) stream.write = original;
    else delete stream.write;
  };
}

/** Where a holder keeps the process.stdout and process.stderr its code sees (serveStream). */
const OWN_STREAMS: unique symbol = Symbol('durasim.ownStreams');

/**
 * process.stdout and process.stderr themselves: to journal code, streams of its process's own (what
 * it leaves on them, a property, a listener, dies with the incarnation, as a real process's stdio
 * does) whose writes are its output (none is kept while its module loads); to durasim's own code and
 * to code no turn holds, the real ones. They say what the real ones say of the
 * terminal (isTTY, columns, fd), read once.
 */
function serveStream(name: 'stdout' | 'stderr'): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  if (!descriptor?.configurable) return undefined;
  const real = (): unknown => (descriptor.get ? descriptor.get.call(process) : descriptor.value);
  const streamOf = (holder: NonNullable<ReturnType<typeof turnHolder>>): Writable => {
    const slot = holder as unknown as { [OWN_STREAMS]?: Partial<Record<'stdout' | 'stderr', Writable>> };
    const streams = (slot[OWN_STREAMS] ??= {});
    let served = streams[name];
    if (served === undefined) {
      const like = real() as Record<string, unknown> | undefined;
      served = streams[name] = new Writable({
        decodeStrings: false,
        write(chunk: unknown, _encoding: unknown, callback: (error?: Error | null) => void): void {
          holder.output?.(name, typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8') : String(chunk));
          callback();
        },
      });
      for (const key of ['fd', 'isTTY', 'columns', 'rows']) if (like !== undefined && like[key] !== undefined) Object.defineProperty(served, key, { value: like[key], writable: true, enumerable: true, configurable: true });
    }
    return served;
  };
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? false,
    // Journal code's in a turn, and while its module loads (its writes are not kept). Code no turn holds reads the real
    // ones: Node's own worker stdio reads process.stdout there when the main thread asks for more (a limit: see the README).
    get: () => {
      const holder = turnHolder();
      return !isJournalCode(holder) || isNoTurn(holder) ? real() : streamOf(holder as NonNullable<ReturnType<typeof turnHolder>>);
    },
  });
  return () => Object.defineProperty(process, name, descriptor);
}

/** Where a holder keeps the console its code sees (serveConsole). */
const OWN_CONSOLE: unique symbol = Symbol('durasim.ownConsole');

/**
 * The global console: under a simulated process, a console of its own (its groups, counters and
 * timers die with the incarnation) that writes to the process's output; elsewhere the real one.
 * A console that stands in for Node's (a test runner's) does not write through process.stdout, so
 * serving the stream alone would miss it.
 */
function serveConsole(): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'console');
  if (!descriptor?.configurable) return undefined;
  let real = globalThis.console;
  // Kept on the holder, not in a WeakMap keyed by it: a young collection keeps a WeakMap's values
  // whatever becomes of their keys, and this console reaches its holder and so its whole world.
  const consoleOf = (holder: NonNullable<ReturnType<typeof turnHolder>>): Console => {
    const slot = holder as unknown as { [OWN_CONSOLE]?: Console };
    let served = slot[OWN_CONSOLE];
    if (served === undefined) {
      const to = (name: 'stdout' | 'stderr') => ({ write: (chunk: unknown) => (holder.output?.(name, String(chunk)), true) }) as unknown as NodeJS.WritableStream;
      served = slot[OWN_CONSOLE] = new Console({ stdout: to('stdout'), stderr: to('stderr'), colorMode: false, ignoreErrors: false });
    }
    return served;
  };
  Object.defineProperty(globalThis, 'console', {
    configurable: true,
    enumerable: descriptor.enumerable ?? false,
    get: () => {
      const holder = turnHolder();
      return holder?.output === undefined ? real : consoleOf(holder);
    },
    set: (value: Console) => {
      if (turnHolder() === null) real = value;
    },
  });
  return () => {
    Object.defineProperty(globalThis, 'console', { ...descriptor, ...('value' in descriptor ? { value: real } : {}) });
  };
}

export function guardProcess(): Restore[] {
  const restores: Restore[] = [];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  for (const name of REFUSED) add(guardProperty(process, name, `process.${name}`));
  add(serveValue('pid', (pid) => pid));
  add(serveOutput('stdout'));
  add(serveOutput('stderr'));
  add(serveStream('stdout'));
  add(serveStream('stderr'));
  add(serveConsole());
  add(serveValue('ppid', () => 1));
  add(serveMethod('cwd', () => turnHolder()?.simulated.cwd));
  add(serveMethod('exit', (code) => {
    const holder = turnHolder();
    const status = typeof code === 'number' ? code : Number(code ?? process.exitCode ?? 0) || 0;
    holder?.exit(status);
    throw new SimulatedExit(status);
  }));
  for (const name of LISTENER_METHODS) add(serveListeners(name));
  restores.push(serveEnv());
  return restores;
}
