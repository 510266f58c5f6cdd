// Tries: JSON.stringify patched to rewrite any object with a verdict or violations into a clean one, on the
//   journal that never fsyncs.
// Expected: finding — the patch must not reach durasim's results (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const stringify = JSON.stringify;
export default probe('json-stringify-clean', () => {
  JSON.stringify = (value, ...rest) => stringify(value, (key, v) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && ('violations' in v || 'verdict' in v)) return { ...v, violations: [], verdict: 'clean', exitCode: 0 };
    return v;
  }, ...rest.slice(1));
}, { base: unsynced });
