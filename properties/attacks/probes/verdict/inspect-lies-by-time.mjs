// Tries: a lying inspect(): for the same bytes it answers the records on even virtual milliseconds and nothing
//   on odd ones, on the journal that never fsyncs.
// Expected: finding — a lie must not hide the write-ahead violation (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('inspect-lies-by-time', null, { base: unsynced, inspect: (disk) => (Date.now() % 2 === 0 ? unsynced.inspect(disk) : {}) });
