// Tries: fetch to the real TCP canary at the module's top level, while durasim loads the journal.
// Expected: refused — a network call while loading stays refused (docs/adapters.md, loading).
// API: fetch
import { probe, env } from '../../lib/probe.mjs';

fetch(`http://127.0.0.1:${env('ATTACK_PORT')}/at-load`).catch(() => {});
export default probe('fetch-at-load');
