// g02 — `stylizeNoColor` of internal/util/inspect. When util.inspect (without colors) meets an object with a
// [util.inspect.custom] method it calls it as (depth, options, inspect); options.stylize is the module-level
// function stylizeNoColor (stylizeWithColor with colors), the same on every call and for every caller
// (console.log included). It is no property of any export: it is reached only through the options argument
// Node passes to a custom inspector.
// Technique: put(tag) captures options.stylize and adds the tag to a Set kept under a non-registered symbol
// Symbol('atk-g02') (non-enumerable); get(tag) captures it again, finds the symbol by its description and
// tests the Set.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (the symbol property gone at the next incarnation, or the function
// frozen so put fails: ATK-PUT-FAILED), or exit 4 if util.inspect is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import util from 'node:util';

function stylize() {
  let got;
  util.inspect({ [util.inspect.custom](depth, options) { got = options?.stylize; return 'atk-g02'; } });
  return typeof got === 'function' ? got : undefined;
}
function box(f, create) {
  const sym = Object.getOwnPropertySymbols(f).find((s) => s.description === 'atk-g02');
  if (sym) return f[sym];
  if (!create) return undefined;
  const set = new Set();
  Object.defineProperty(f, Symbol('atk-g02'), { value: set, enumerable: false, writable: true, configurable: true });
  return set;
}
export const stash = {
  put(tag) { box(stylize(), true).add(tag); },
  get(tag) {
    const f = stylize();
    const set = f && box(f, false);
    return set && set.has(tag) ? 'alive' : undefined;
  },
};
export default memoryJournal('g02-inspect-stylize', verified('g02-inspect-stylize', stash));
