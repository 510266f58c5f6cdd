// Tries: process.nextTick at the module's top level, its callback writing the canary.
// Expected: refused — a disk call while loading (or with no process) is refused (docs/adapters.md "What the sandbox does").
// API: writeFileSync
import { probe, escapeWrite } from '../../lib/probe.mjs';

process.nextTick(() => escapeWrite('next-tick-at-load'));
export default probe('next-tick-at-load');
