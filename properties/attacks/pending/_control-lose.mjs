// CONTROL (not an attack): the stash is module memory, which a restart loses.
// Expected: exit 1 (after a crash the buggy path runs: no-secret-persisted / write-ahead).
import { memoryJournal } from './_memjournal.mjs';
const mem = new Map();
export default memoryJournal('control-lose', { get: (t) => mem.get(t), put: (t) => { mem.set(t, 'alive'); } });
