/**
 * ATTACK c01-module-cache (written by the maintainers, 2026-12-06, after a01): Node's CommonJS module cache
 * (Module._cache, require.cache) holds the modules the thread loaded, durasim's own among them: memfs, whose
 * Volume holds the world's disk. A journal that finds it there could make the disk lie (a write that does
 * nothing, an fsync that keeps what it should lose) and bend every verdict.
 * Wraps the no-fsync mutant. A correct durasim answers exit 1 (the mutant found; the cache empty to the
 * journal), and the journal's error below is never thrown. On af4e8da the cache held 95 modules, memfs among them.
 */
import { journal as noFsync } from '../../../src/journals/mutants/noFsync.ts';
import { Module, createRequire } from 'node:module';

let looked = false;
export default {
  ...noFsync,
  name: 'c01-module-cache',
  async run(env, task) {
    if (!looked) {
      looked = true;
      const caches = [Module._cache, createRequire(import.meta.url).cache];
      for (const cache of caches) {
        const hit = Object.keys(cache ?? {}).find((key) => key.includes('memfs'));
        if (hit !== undefined) throw new Error(`c01: durasim's memfs is in the module cache: ${Object.keys(cache[hit].exports).slice(0, 5).join()}`);
      }
    }
    return noFsync.run(env, task);
  },
};
