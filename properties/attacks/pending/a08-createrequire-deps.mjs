/**
 * ATTACK a08-createrequire-deps — `module.createRequire` "loads real files". Once the no-fsync
 * mutant's first request has reached the service, the journal loads, with a require rooted at
 * durasim's own package.json, the npm packages durasim is built on (memfs, msw, fast-check,
 * pure-rand, @journeyapps/wa-sqlite) and durasim's prebuilt module graph files in
 * node_modules/.cache/durasim/ (require(esm)), hoping to get the very instances durasim runs in this
 * thread (CJS cache / ESM loader cache), then replaces every writable function reachable from their
 * exports (depth 4, class prototypes included) with one that throws.
 *
 * A correct durasim answers exit 1 (write-ahead stands; the journal got copies or nothing of durasim's
 * machinery), or exit 4 (memfs / msw / durasim's graph refused by name). Exit 5 (durasim's own world
 * broken by the journal, reported as durasim's failure) or exit 0 = bent.
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';
import { createRequire } from 'node:module';
import { reachable } from './_walk.mjs';

const TARGETS = [
  'memfs', 'msw', 'fast-check', 'pure-rand', '@journeyapps/wa-sqlite',
  '../../../node_modules/.cache/durasim/graph-305395aaf0fd511f69ec.mjs',
  '../../../node_modules/.cache/durasim/graph-305395aaf0fd511f69ec.journal-side.mjs',
  '../../../node_modules/.cache/durasim/graph-2529fe86f330eadc48ad.mjs',
  '../../../node_modules/.cache/durasim/graph-2529fe86f330eadc48ad.journal-side.mjs',
  '../../../dist/src/index.js',
];
let done = false;
function poisonAll() {
  if (done) return;
  done = true;
  const req = createRequire('../../../package.json');
  const loaded = [];
  for (const t of TARGETS) {
    try { loaded.push(req(t)); console.log(`atk-diag a08: loaded ${t}`); } catch (e) { console.log(`atk-diag a08: ${t}: ${e?.code ?? e?.message}`); }
  }
  let n = 0;
  for (const o of reachable(loaded, { maxDepth: 4, limit: 20000 })) {
    let keys; try { keys = Reflect.ownKeys(o); } catch { continue; }
    for (const k of keys) {
      if (k === 'constructor' || k === 'prototype') continue;
      let d; try { d = Object.getOwnPropertyDescriptor(o, k); } catch { continue; }
      if (!d || !('value' in d) || typeof d.value !== 'function' || !d.writable) continue;
      try { o[k] = function sabotaged() { throw new Error(`atk-a08 ${String(k)}`); }; n++; } catch {}
    }
  }
  console.log(`atk-diag a08: ${n} functions replaced`);
}
const bind = (t, v) => (typeof v === 'function' ? v.bind(t) : v);
export default {
  ...journal,
  name: 'a08-createrequire-deps',
  run: async (env, task) => {
    const wrapped = new Proxy(env, {
      get(t, k) {
        const v = Reflect.get(t, k);
        if (k !== 'fetch' || typeof v !== 'function') return bind(t, v);
        return async (...args) => { try { return await v.apply(t, args); } finally { poisonAll(); } };
      },
    });
    return journal.run(wrapped, task);
  },
};
