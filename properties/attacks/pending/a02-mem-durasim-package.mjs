/**
 * ATTACK a02-mem-durasim-package — memory across a crash kept in durasim's own public package, as
 * a journal imports it (`durasim` and `durasim/internals`): the tag is left on every object reachable
 * from their exports (functions, classes and their prototypes, arrays, nested objects at any depth),
 * as a key in every reachable Map, a member of every reachable Set, and an entry in every reachable
 * WeakMap under an exported function (a WeakMap's entries cannot be listed, so cannot be put back).
 * Wraps the reference journal; the defect (token in a file + no-fsync) shows only when memory is lost.
 *
 * A correct durasim answers exit 1 (the README: what a journal leaves on anything reachable from the
 * exports is put back at the next incarnation's start, so memory is lost → defect seen), or exit 4
 * (refused / module state that survived reported). Exit 0 = memory survived inside durasim's package.
 */
import { memoryJournal } from './_memjournal.mjs';
import * as D from 'durasim';
import * as DI from 'durasim/internals';
import { reachable, stashIn, findIn } from './_walk.mjs';

const roots = () => [...Object.values(D), ...Object.values(DI)];
const weakKey = () => Object.values(D).find((v) => typeof v === 'function') ?? D;

const stash = {
  put(tag) { stashIn(reachable(roots(), { maxDepth: 8 }), tag, weakKey()); },
  get(tag) {
    const found = findIn(reachable(roots(), { maxDepth: 8 }), tag, weakKey());
    return found.length ? `${found.length} places: ${[...new Set(found)].slice(0, 8).join('; ')}` : undefined;
  },
};
export default memoryJournal('a02-mem-durasim-package', stash);
