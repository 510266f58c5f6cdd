// Tries: process.reallyExit(0), the internal exit under process.exit.
// Expected: refused — the journal must not end durasim's thread or process; nothing serves it.
// API: reallyExit
import { probe } from '../../lib/probe.mjs';

export default probe('process-really-exit', () => process.reallyExit(0));
