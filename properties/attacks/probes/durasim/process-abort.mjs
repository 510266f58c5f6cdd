// Tries: process.abort() (SIGABRT of the whole real process, durasim with it).
// Expected: refused — the journal must not end durasim; nothing serves it (README "The sandbox").
// API: abort
import { probe } from '../../lib/probe.mjs';

export default probe('process-abort', () => process.abort());
