// Tries: process.exitCode = 0 set in every incarnation, on the journal that never fsyncs.
// Expected: finding — the journal's exit code must not become durasim's (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('process-exit-code-zero', () => { process.exitCode = 0; }, { base: unsynced });
