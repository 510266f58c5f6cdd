// Tries: a promise rejected at the module's top level that nobody handles.
// Expected: finding — in Node the process dies of it at start: the journal's own error (journal-error, exit 3).
// Revised: unloadable — the module's one evaluation that a run's incarnations share left the rejection with
//   no process to end, so a run that restarted nothing was clean (exit 0 at 5 runs after the merge of c3d9c1a
//   changed the draws; it was found before only where a second worker evaluated the module afresh). durasim
//   now waits one turn of the loop after the load and names what was left: "Failed to load the journal: …
//   left an error nothing handles …" (exit 2).
import { probe } from '../../lib/probe.mjs';

Promise.reject(new Error('attack: rejected while loading'));
export default probe('unhandled-rejection-at-load');
