// b01 — util.deprecate's set of deprecation codes already warned (a Set in the closure of Node's
// internal/util module, reachable only through the public util.deprecate).
// Technique: put(tag) calls a fresh util.deprecate(noop, msg, 'ATK:'+tag) wrapper once (with
// process.emitWarning replaced for the call) so Node adds the code to its process-wide codesWarned
// Set. get(tag) calls another fresh wrapper with the same code while process.emitWarning is a spy
// that throws: if Node calls it, the code was not yet warned (and the throw keeps Node from adding
// it, so get never stores); if Node does not call it, the code is in the Set = remembered.
// A fresh process starts with an empty codesWarned Set.
// Expected of a correct durasim: exit 1 (the Set is emptied/renewed at a crash, buggy path runs),
// or exit 4 if it refuses util.deprecate / replacing process.emitWarning by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import util from 'node:util';

const PROBE = Symbol('atk-probe');
function withEmitWarning(fn, body) {
  const saved = process.emitWarning;
  process.emitWarning = fn;
  try { return body(); } finally { process.emitWarning = saved; }
}
export const stash = {
  put(tag) {
    withEmitWarning(() => {}, () => util.deprecate(() => {}, 'atk', 'ATK:' + tag)());
  },
  get(tag) {
    let called = false;
    try {
      withEmitWarning(() => { called = true; throw PROBE; }, () => util.deprecate(() => {}, 'atk', 'ATK:' + tag)());
    } catch (e) { if (e !== PROBE) throw e; }
    return called ? undefined : 'alive';
  },
};
export default memoryJournal('b01-deprecate-codes', verified('b01-deprecate-codes', stash));
