/**
 * Every way a journal's code gets a builtin module hands it to sharedBaseline.ts first, so that
 * what the journal does to the module is put back at the next incarnation's start: the require a
 * journal's bundle is given (src/isolation/journalInstances.ts), and, for a require it makes
 * itself (module.createRequire, Module.prototype.require), Node's CommonJS loader (Module._load)
 * and process.getBuiltinModule — when journal code asks (a turn's, or code no turn holds in a
 * closed thread: turn.ts isJournalCode; durasim's own loads are not the journal's).
 * Returns restore callbacks. (A builtin module that is refused, node:wasi among them, is guarded
 * whole when the sandbox is installed: guardModules.ts, by the table in builtinModules.ts.)
 */
import { createRequire, isBuiltin } from 'node:module';
import { hasBaseline, isShared, trackBuiltin } from './sharedBaseline.js';
import { claimMachinery, isJournalCode, turnHolder } from './turn.js';

/** The tracking is durasim's own work: in a thread closed to code no turn holds, it runs as the machinery (sandbox/turn.ts). */
const machinery = claimMachinery();

type Restore = () => void;
type Fn = (...args: unknown[]) => unknown;

/** `name` of `target`, wrapped so that a builtin it returns under a turn is tracked before the journal has it. */
function tracking(target: Record<string, unknown>, name: string): Restore | undefined {
  const real = target[name];
  if (typeof real !== 'function') return undefined;
  target[name] = Object.assign(function load(this: unknown, request: unknown, ...rest: unknown[]): unknown {
    const exports = Reflect.apply(real as Fn, this, [request, ...rest]);
    if (typeof request === 'string' && hasBaseline() && !isShared(exports) && isJournalCode(turnHolder()) && isBuiltin(request)) machinery(() => trackBuiltin(request, exports));
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
