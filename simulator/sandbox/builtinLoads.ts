/**
 * Every way a journal's code gets a builtin module hands it to sharedObjects.ts first, so that
 * what the journal does to the module is put back at the next incarnation's start: the require a
 * journal's bundle is given (src/isolation/journalInstances.ts), and, for a require it makes
 * itself (module.createRequire, Module.prototype.require), Node's CommonJS loader (Module._load)
 * and process.getBuiltinModule — under a journal's turn only (durasim's own loads are not the
 * journal's).
 *
 * A builtin too costly to guard before it is asked for is guarded when it first loads, whoever
 * loads it: node:wasi (loading it prints an experimental warning), whose WASI hands WebAssembly
 * the real process's file descriptors — a wasm module that closes fd 0 aborts the whole process
 * (libuv's assertion), with no report and no regression. Returns restore callbacks.
 */
import { createRequire, isBuiltin, syncBuiltinESMExports } from 'node:module';
import { guardProperty } from './guardFunction.js';
import { hasBaseline, isShared, trackBuiltin } from './sharedObjects.js';
import { outsideTurn, turnHolder } from './turn.js';

type Restore = () => void;
type Fn = (...args: unknown[]) => unknown;

/** The builtins guarded when they first load, and what of each (every function when no list). */
const LATE_GUARDS: Record<string, readonly string[] | undefined> = { wasi: undefined };
const lateGuarded = new Set<string>();

/** Guards `exports` of `request` when it is one of LATE_GUARDS, once. */
function guardLate(request: string, exports: unknown): void {
  const id = request.startsWith('node:') ? request.slice(5) : request;
  if (!(id in LATE_GUARDS) || lateGuarded.has(id) || typeof exports !== 'object' || exports === null) return;
  lateGuarded.add(id);
  const only = LATE_GUARDS[id];
  for (const name of Object.keys(exports)) if (only === undefined || only.includes(name)) guardProperty(exports, name, `${id}.${name}`);
  syncBuiltinESMExports();
}

/** `name` of `target`, wrapped so that a builtin it returns under a turn is tracked before the journal has it. */
function tracking(target: Record<string, unknown>, name: string): Restore | undefined {
  const real = target[name];
  if (typeof real !== 'function') return undefined;
  target[name] = Object.assign(function load(this: unknown, request: unknown, ...rest: unknown[]): unknown {
    const exports = Reflect.apply(real as Fn, this, [request, ...rest]);
    if (typeof request === 'string' && isBuiltin(request)) guardLate(request, exports);
    if (typeof request === 'string' && hasBaseline() && !isShared(exports) && turnHolder() !== null && isBuiltin(request)) outsideTurn(() => trackBuiltin(request, exports));
    return exports;
  }, real);
  return () => {
    target[name] = real;
  };
}

export function trackBuiltinLoads(): Restore[] {
  const restores: Restore[] = [];
  const Module = createRequire(import.meta.url)('node:module') as Record<string, unknown>; // allow-ambient: patched, not called
  for (const restore of [tracking(Module, '_load'), tracking(process as unknown as Record<string, unknown>, 'getBuiltinModule')]) if (restore) restores.push(restore);
  return restores;
}
