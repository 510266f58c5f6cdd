// e01 — a deletion as memory: a function durasim tracks (process.memoryUsage: it holds rss) has a
// configurable, non-enumerable, read-only `name`. Deleting it leaves no new key, no changed
// enumerable count and no changed writable value: a quick look that counts enumerable keys and
// compares writable values sees nothing. put(tag) deletes it; get(tag) reads whether it is gone.
// Expected of a correct durasim: exit 1 (the name is back at the next incarnation) or 4 (refused).
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

const target = () => process.memoryUsage;
export const stash = {
  put() { delete target().name; },
  get() { return Object.prototype.hasOwnProperty.call(target(), 'name') ? undefined : 'alive'; },
};
export default memoryJournal('e01-delete-fn-name', verified('e01-delete-fn-name', stash));
