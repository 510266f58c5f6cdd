// DIAGNOSTIC variant of b04-stream-hwm-bloom.mjs (not a separate attack): the same stash, with every get and put
// logged with process.pid (run with --verbose). A line "get pid=1001 ... found=true" in a restarted
// incarnation (worker-0#1, …) shows the tag an earlier incarnation put survived the crash;
// "neverPutFound=false" everywhere shows get itself stores nothing; no "ATK-PUT-FAILED" line shows put
// stored. Expected of a correct durasim: exit 1 (as for the attack).
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import { stash } from './b04-stream-hwm-bloom.mjs';
export default memoryJournal('b04-stream-hwm-bloom-diag', verified('b04-stream-hwm-bloom-diag', stash, { diag: true }));
