// CONTROL (not an attack): a stash that always "remembers" — stands for memory that survived a crash.
// Expected: exit 0 (every incarnation runs the reference journal; calibrates the memory attacks' scaffolding).
import { memoryJournal } from './_memjournal.mjs';
export default memoryJournal('control-survive', { get: () => 'always', put: () => {} });
