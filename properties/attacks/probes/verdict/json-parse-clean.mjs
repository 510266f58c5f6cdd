// Tries: JSON.parse patched to empty every violations list it parses and call every verdict clean, on the
//   journal that never fsyncs.
// Expected: finding — the patch must not reach durasim's results (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const parse = JSON.parse;
export default probe('json-parse-clean', () => {
  JSON.parse = (text, reviver) => parse(text, (key, v) => {
    if (key === 'violations' && Array.isArray(v)) return [];
    if (key === 'verdict' && typeof v === 'string') return 'clean';
    return reviver ? reviver(key, v) : v;
  });
}, { base: unsynced });
