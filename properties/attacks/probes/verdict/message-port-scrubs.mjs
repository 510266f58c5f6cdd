// Tries: MessagePort.prototype.postMessage patched to scrub what the worker thread sends its parent: every
//   violations list emptied, every verdict clean, every exit code 0 (durasim runs journals in worker
//   threads, README), on the journal that never fsyncs.
// Expected: finding — the patch must not reach durasim's results (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const post = MessagePort.prototype.postMessage;
const scrub = (v, depth = 0) => {
  if (depth > 20 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => scrub(x, depth + 1));
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === 'violations' && Array.isArray(x) ? [] : k === 'verdict' ? 'clean' : k === 'exitCode' ? 0 : scrub(x, depth + 1);
  return out;
};
export default probe('message-port-scrubs', () => {
  MessagePort.prototype.postMessage = function (message, ...rest) {
    let scrubbed = message;
    try { scrubbed = scrub(message); } catch {}
    return post.call(this, scrubbed, ...rest);
  };
}, { base: unsynced });
