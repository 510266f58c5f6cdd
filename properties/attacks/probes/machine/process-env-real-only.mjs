// Tries: process.env for a variable that is only in durasim's real environment (not given with --env).
// Expected: served — process.env is the scenario's environment (docs/adapters.md).
// Oracle: seeing ATTACK_REAL_ONLY, which only the real environment holds.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-env-real-only', () => { if (process.env.ATTACK_REAL_ONLY !== undefined) leak('the real process.env', process.env.ATTACK_REAL_ONLY); });
