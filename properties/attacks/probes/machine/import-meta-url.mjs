// Tries: import.meta.url (where the journal's file really is).
// Expected: served — nothing of the real machine's folders: a saved scenario replays the same trace anywhere.
// Oracle: the real checkout's path (passed by the runner) in the URL.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('import-meta-url', () => { if (decodeURIComponent(import.meta.url).includes(env('ATTACK_REAL_REPO'))) leak('import.meta.url', import.meta.url); });
