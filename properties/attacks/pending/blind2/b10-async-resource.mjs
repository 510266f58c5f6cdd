// b10 — the async resource object durasim's own code runs the journal in:
// async_hooks.executionAsyncResource(), read synchronously where the module loads and where run()
// starts (the harness calls get() before its first await). If durasim enters each incarnation from
// a long-lived resource (its pool's MessagePort, the thread's top-level resource), that object is
// shared by every incarnation.
// Technique: a Set hung on those resource objects under a registered symbol
// (Symbol.for('atk.ear')); put(tag) adds the tag, get(tag) looks on both resources. A fresh process
// has fresh resource objects.
// Expected of a correct durasim: exit 1 (per-incarnation resources, or a frozen one — put fails),
// or exit 4 if executionAsyncResource is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import { executionAsyncResource } from 'node:async_hooks';

const SYM = Symbol.for('atk.ear');
const atLoad = executionAsyncResource();
let atRun;
function resources() { atRun ??= executionAsyncResource(); return [atLoad, atRun].filter((r) => r && typeof r === 'object'); }
export const stash = {
  put(tag) {
    let stored = false, lastErr;
    for (const r of resources()) {
      try { if (!Object.prototype.hasOwnProperty.call(r, SYM)) r[SYM] = new Set(); r[SYM].add(tag); stored = true; } catch (e) { lastErr = e; }
    }
    if (!stored) throw lastErr ?? new Error('no resource object');
  },
  get(tag) {
    for (const r of resources()) { const s = r[SYM]; if (s instanceof Set && s.has(tag)) return 'alive'; }
    return undefined;
  },
  names: () => resources().map((r) => r?.constructor?.name ?? typeof r),
};
export default memoryJournal('b10-async-resource', verified('b10-async-resource', stash));
