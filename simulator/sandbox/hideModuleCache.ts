/**
 * Node's CommonJS module cache (Module._cache, and require.cache, the same object) holds the modules
 * this thread loaded: durasim's own machinery among them (memfs, which holds the world's disk), since
 * a journal's modules are bundled and never in it. Journal code (a turn's, or code no turn holds in a
 * closed thread) reads an empty cache that nothing can be added to, as a process that loaded none of
 * those modules would; assigning Module._cache is refused by name. Node's loader, run for the journal
 * (a builtin it requires itself), reads the same empty cache and loads the builtin as before. Durasim's
 * own code reads the real one. Returns restore callbacks.
 */
import { createRequire } from 'node:module';
import { refuse } from './guardFunction.js';
import { isJournalCode, turnHolder } from './turn.js';

type Restore = () => void;

/** What journal code finds in the cache: nothing, and nothing can be added (a property added would outlive the crash). */
const EMPTY: object = Object.freeze(Object.create(null) as object);

export function hideModuleCache(): Restore[] {
  const Module = createRequire(import.meta.url)('node:module') as Record<string, unknown>; // allow-ambient: patched, not called
  const descriptor = Object.getOwnPropertyDescriptor(Module, '_cache');
  if (descriptor === undefined || !('value' in descriptor) || !descriptor.configurable) return [];
  let real = descriptor.value as unknown;
  Object.defineProperty(Module, '_cache', {
    configurable: true,
    enumerable: descriptor.enumerable === true,
    get: function _cache(): unknown {
      return isJournalCode(turnHolder()) ? EMPTY : real;
    },
    set: function _cache(value: unknown): void {
      const holder = turnHolder();
      if (holder !== null && isJournalCode(holder)) refuse(holder, 'module.Module._cache');
      real = value;
    },
  });
  return [() => Object.defineProperty(Module, '_cache', { ...descriptor, value: real })];
}
