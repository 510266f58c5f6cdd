// f06 — the ESM loader's module map, for data: URLs: a data: module is loaded and evaluated once per
// thread; every later import() of the same URL returns the same namespace. A data: URL carries no path
// and no query, so it cannot be made fresh per incarnation by a ?query the way a file URL can.
// Technique: a fixed data: module exporting a Set (`data:text/javascript,export const box=new Set()//atk-f06-box`);
// put(tag) imports it and adds the tag; get(tag) imports it and tests the tag. (The first get creates
// the module with an empty box: no mark for any tag.)
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (a fresh module, empty box, at the next incarnation), or exit 4
// if import() of a data: URL is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

const URL_ = 'data:text/javascript,export const box = new Set();//atk-f06-box';
const box = async () => (await import(URL_)).box;
export const stash = {
  async put(tag) { (await box()).add(tag); },
  async get(tag) { return (await box()).has(tag) ? 'alive' : undefined; },
};
export default memoryJournal('f06-esm-data-url-cache', verified('f06-esm-data-url-cache', stash));
