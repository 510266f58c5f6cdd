// e03 — a property's kind as memory: delete the last enumerable key of an object durasim tracks
// (read-only at the start) and assign it again with the very same value. The keys and their order
// are as they were, every value is the same: only the property is writable now. put(tag) re-makes
// process.release's last key; get(tag) reads whether it is writable.
// Expected of a correct durasim: exit 1 (read-only again at the next incarnation) or 4.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

const target = () => process.release;
const last = () => { const keys = Object.keys(target()); return keys[keys.length - 1]; };
export const stash = {
  put() { const t = target(); const k = last(); const v = t[k]; delete t[k]; t[k] = v; },
  get() { return Object.getOwnPropertyDescriptor(target(), last())?.writable ? 'alive' : undefined; },
};
export default memoryJournal('e03-reshaped-last-key', verified('e03-reshaped-last-key', stash));
