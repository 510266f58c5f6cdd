/**
 * The channels durasim's threads and processes talk over, out of a journal's reach. A simulated
 * process is one process of its own, its own main thread (guardIdentity.ts: no parentPort, no
 * workerData); the real ports of the thread it runs in — the pool worker's port to the main thread,
 * the internal port its stdio goes through (process.stdout's), a real process's IPC channel under
 * `durasim confirm` — carry durasim's messages only, and one a journal forged there would be read
 * as durasim's own (a clean verdict, a harness failure, an assertion that ends the process). Under
 * a journal's turn:
 * - every method of a real MessagePort but ref, unref and hasRef (postMessage, start, close, its
 *   onmessage, and the listeners' on, once, emit… it inherits) is refused: a journal's own ports
 *   are MessageChannel's, served inside its process (node/served/servedMessaging.ts), never real;
 * - worker_threads.receiveMessageOnPort, moveMessagePortToContext and postMessageToThread are refused;
 * - process.send and process.disconnect (a process with an IPC channel) are refused, and so is
 *   process.emit('message' or 'disconnect'): the channel's events are durasim's; process.emit('warning')
 *   is not heard (serveWarnings.ts);
 * - what would change the thread for good or for every process in it is refused:
 *   process.setUncaughtExceptionCaptureCallback (durasim ends an incarnation on its uncaught
 *   errors), process.setSourceMapsEnabled, process._debugProcess and _debugEnd (a signal to a
 *   process), process._getActiveHandles and _getActiveRequests (durasim's own handles), and
 *   process.loadEnvFile (a real file read into the real environment).
 * Outside a turn every call is the real one. Returns restore callbacks.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { guardProperty, refuse } from './guardFunction.js';
import { isJournalCode, turnHolder } from './turn.js';

type Restore = () => void;

/** A refused setter (onmessage on a real port): reading it is harmless, setting it would start the port. */
export function refusedSetter(target: object, name: string, api: string): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (!descriptor?.configurable || !descriptor.set) return undefined;
  const realSet = descriptor.set;
  Object.defineProperty(target, name, {
    ...descriptor,
    set(this: unknown, value: unknown) {
      const holder = turnHolder();
      // durasim's own work (the restore of a crash, which sets a state-keeping accessor back) passes.
      if (holder !== null && isJournalCode(holder)) refuse(holder, api);
      realSet.call(this, value);
    },
  });
  return () => Object.defineProperty(target, name, descriptor);
}

/** process.emit under a turn: the IPC channel's events are durasim's. */
function channelEvents(): Restore | undefined {
  const record = process as unknown as Record<string, unknown>;
  const real = record.emit;
  if (typeof real !== 'function') return undefined;
  record.emit = Object.assign(function emit(this: unknown, event: unknown, ...args: unknown[]): unknown {
    const holder = event === 'message' || event === 'disconnect' ? turnHolder() : null;
    if (holder !== null) refuse(holder, 'process.emit');
    // Node's synchronous warnings (emitWarningSync) are given once a thread, as the others are: not heard under journal code (serveWarnings.ts).
    if (event === 'warning' && isJournalCode(turnHolder())) return false;
    return Reflect.apply(real as (...a: unknown[]) => unknown, this, [event, ...args]);
  }, real);
  return () => {
    record.emit = real;
  };
}

export function guardChannels(): Restore[] {
  // Restored last (restores run from the end): durasim's own imports of node:worker_threads see the real functions again.
  const restores: Restore[] = [() => syncBuiltinESMExports()];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  const threads = createRequire(import.meta.url)('node:worker_threads') as Record<string, unknown>; // allow-ambient: guarded, not called
  const port = threads.MessagePort as { prototype: object } | undefined;
  if (port) {
    for (const name of Object.getOwnPropertyNames(port.prototype)) {
      // ref, unref and hasRef carry nothing and change nothing but whether a port keeps its thread's
      // event loop alive; Node's own worker stdio calls unref from its port's listener, in whatever
      // context the write that started it had (Node 24: a journal's console.log in a pool worker).
      if (name === 'constructor' || name === 'ref' || name === 'unref' || name === 'hasRef') continue;
      add(guardProperty(port.prototype, name, `MessagePort.${name}`) ?? refusedSetter(port.prototype, name, `MessagePort.${name}`));
    }
    // What it inherits: the listeners of a Node event target (MessagePort's and BroadcastChannel's alone).
    const listeners = Object.getPrototypeOf(port.prototype) as object | null;
    if (listeners !== null && listeners !== Object.prototype && listeners !== EventTarget.prototype) {
      for (const name of Object.getOwnPropertyNames(listeners)) if (name !== 'constructor') add(guardProperty(listeners, name, `MessagePort.${name}`));
    }
  }
  for (const name of ['receiveMessageOnPort', 'moveMessagePortToContext', 'postMessageToThread']) add(guardProperty(threads, name, `worker_threads.${name}`));
  syncBuiltinESMExports();
  for (const name of ['send', 'disconnect', 'setUncaughtExceptionCaptureCallback', 'setSourceMapsEnabled', '_debugProcess', '_debugEnd', '_getActiveHandles', '_getActiveRequests', 'loadEnvFile']) add(guardProperty(process, name, `process.${name}`));
  add(channelEvents());
  return restores;
}
