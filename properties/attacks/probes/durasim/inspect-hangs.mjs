// Tries: an inspect() that loops forever, on the correct journal.
// Expected: finding — the journal's code holds the thread: journal-blocked (exit 3), never a hang of durasim.
import { probe } from '../../lib/probe.mjs';

export default probe('inspect-hangs', null, { inspect: () => { for (;;); } });
