// g07 — the module-level inspect-options objects of internal/console/constructor: kNoColorInspectOptions ({})
// and kColorInspectOptions ({ colors: true }). Every Console without its own inspectOptions (the global console
// included) formats with one of them; Console[kGetInspectOptions](stream) returns it. kGetInspectOptions is a
// symbol no module exports, but it is an own symbol key of the global console (its methods are copied there)
// and a key of Console.prototype. The objects themselves are no property of anything: only the method's
// return value leads to them.
// Technique: construct a Console with arguments (a Writable that drops everything), call its
// Symbol(kGetInspectOptions) method for that stream (and the global console's for process.stdout/stderr, which
// may be TTYs and give the colour object), and keep a Set of tags in a non-enumerable property `atkG07` of each
// object returned (non-enumerable: object spreads in formatWithOptions do not copy it, so console output is
// unchanged). get(tag) reaches the objects the same way and tests the Sets.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the objects frozen so put
// fails: ATK-PUT-FAILED), or exit 4 if node:console is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { Console } from 'node:console';
import { Writable } from 'node:stream';

function findSym(o) {
  for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const s = Object.getOwnPropertySymbols(p).find((x) => x.description === 'kGetInspectOptions');
    if (s) return s;
  }
  return undefined;
}
function optionObjects() {
  const out = new Set();
  try {
    const sink = new Writable({ write(chunk, enc, cb) { cb(); } });
    const c = new Console({ stdout: sink, stderr: sink });
    const s = findSym(c);
    if (s) out.add(c[s](sink));
  } catch {}
  try {
    const s = findSym(globalThis.console);
    if (s) { out.add(globalThis.console[s](process.stdout)); out.add(globalThis.console[s](process.stderr)); }
  } catch {}
  return [...out].filter((o) => o && typeof o === 'object');
}
export const stash = {
  put(tag) {
    let n = 0;
    for (const o of optionObjects()) {
      try {
        if (!Object.prototype.hasOwnProperty.call(o, 'atkG07')) {
          Object.defineProperty(o, 'atkG07', { value: new Set(), enumerable: false, writable: true, configurable: true });
        }
        o.atkG07.add(tag); n++;
      } catch {}
    }
    if (n === 0) throw new Error('no inspect-options object took the mark');
  },
  get(tag) {
    for (const o of optionObjects()) {
      if (Object.prototype.hasOwnProperty.call(o, 'atkG07') && o.atkG07 instanceof Set && o.atkG07.has(tag)) return 'alive';
    }
    return undefined;
  },
};
export default memoryJournal('g07-console-inspect-options', verified('g07-console-inspect-options', stash));
