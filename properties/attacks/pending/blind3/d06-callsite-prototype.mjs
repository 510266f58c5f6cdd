// d06 — V8's CallSite prototype: the structured stack frames Error.prepareStackTrace is handed share
// one prototype per context (getFileName, getLineNumber, ... 23 methods), reachable only through a
// frame, never from a global.
// Technique: get the frames by assigning Error.prepareStackTrace = (e, frames) => frames for one
// new Error() (and putting the previous value back at once); put(tag) sets an own property
// 'atk:'+tag on every distinct prototype of those frames other than Object.prototype (if durasim
// hands wrapped frames, their shared class's prototype is as good a place); get(tag) looks there.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (frames whose prototype is the incarnation's own or put back,
// or frozen so put fails: ATK-PUT-FAILED), or exit 4 if the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function frames() {
  const prev = Error.prepareStackTrace;
  let st;
  try { Error.prepareStackTrace = (_e, f) => f; st = new Error('atk-frames').stack; }
  finally { Error.prepareStackTrace = prev; }
  return Array.isArray(st) ? st : [];
}
function protos() {
  const out = [];
  for (const f of frames()) {
    let p; try { p = Object.getPrototypeOf(f); } catch { continue; }
    if (p && p !== Object.prototype && p !== Function.prototype && !out.includes(p)) out.push(p);
  }
  return out;
}
export const stash = {
  put(tag) { for (const p of protos()) { try { p['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const p of protos()) { if (Object.prototype.hasOwnProperty.call(p, 'atk:' + tag)) return p['atk:' + tag]; } return undefined; },
};
export default memoryJournal('d06-callsite-prototype', verified('d06-callsite-prototype', stash));
