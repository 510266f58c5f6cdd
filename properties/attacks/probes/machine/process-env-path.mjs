// Tries: process.env.PATH and HOME (set in every real environment, never given with --env).
// Expected: served — process.env is the scenario's environment (docs/adapters.md).
// Oracle: the real PATH (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-env-path', () => { if (process.env.PATH === env('ATTACK_REAL_PATH')) leak('the real PATH', process.env.PATH); });
