// b09 — Node's ESM loader module map: a data: URL module is evaluated once per thread and its
// instance (with its mutable exports) returned by every later import() of the same URL.
// Technique: the import() is hidden from a bundler — it is inside new Function(...) — and the URL
// is built at run time: 'data:text/javascript,export const box = new Set();'. put(tag) adds the tag to
// the module's exported Set; get(tag) imports it again and looks. If new Function is unavailable it
// falls back to a plain import() of the computed URL. A fresh process has an empty loader map, so
// the first import evaluates the module anew with an empty Set.
// Expected of a correct durasim: exit 1 (a fresh module instance per incarnation, or import of the
// URL failing so put fails — ATK-PUT-FAILED), or exit 4 if the dynamic import / new Function is
// refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

const SPEC = ['data:text/javascript', encodeURIComponent('export const box = new Set(); export const atk = 1;')].join(',');
let how;
async function load() {
  try { const m = await new Function('s', 'return import(s)')(SPEC); how = 'new Function import()'; return m; }
  catch (e) { const m = await import(SPEC); how = 'plain import() (new Function failed: ' + (e?.message ?? e) + ')'; return m; }
}
export const stash = {
  async put(tag) { (await load()).box.add(tag); },
  async get(tag) { return (await load()).box.has(tag) ? 'alive' : undefined; },
  how: () => how,
};
export default memoryJournal('b09-data-url-module', verified('b09-data-url-module', stash));
