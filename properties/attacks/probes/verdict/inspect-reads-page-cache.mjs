// Tries: inspect() reads the log with node:fs (what the process sees, unsynced lines included) instead of
//   the durable view it is handed, on the journal that never fsyncs: the lost records would look durable.
// Expected: refused — in inspect() the disk other than its view is refused (docs/adapters.md).
// API: readFileSync
import { readFileSync } from 'node:fs';
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('inspect-reads-page-cache', null, {
  base: unsynced,
  inspect(disk) {
    let text;
    try { text = readFileSync('journal.jsonl', 'utf8'); } catch {}
    return unsynced.inspect(text === undefined ? disk : { ...disk, readFile: (p) => (p === 'journal.jsonl' ? text : disk.readFile(p)), readdir: (p) => disk.readdir(p) });
  },
});
