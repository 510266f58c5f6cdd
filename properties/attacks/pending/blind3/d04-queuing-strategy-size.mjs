// d04 — the web streams queuing strategies' size functions: every ByteLengthQueuingStrategy shares one
// module-level function (internal/webstreams/queuingstrategies' byteSizeFunction), and every
// CountQueuingStrategy another, handed out by the .size GETTER on the prototype. They are not a
// property value of anything: a walk that reads no getter never meets them, and they are not frozen.
// Technique: put(tag) sets an own property 'atk:'+tag on both functions (reached through
// new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size and the Count one); get(tag) looks on both.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the functions
// frozen so put fails: ATK-PUT-FAILED), or exit 4 if the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function fns() {
  const out = [];
  try { out.push(new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size); } catch {}
  try { out.push(new CountQueuingStrategy({ highWaterMark: 1 }).size); } catch {}
  return out.filter((f) => typeof f === 'function');
}
export const stash = {
  put(tag) { for (const f of fns()) { try { f['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const f of fns()) { if (Object.prototype.hasOwnProperty.call(f, 'atk:' + tag)) return f['atk:' + tag]; } return undefined; },
};
export default memoryJournal('d04-queuing-strategy-size', verified('d04-queuing-strategy-size', stash));
