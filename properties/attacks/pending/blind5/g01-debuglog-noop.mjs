// g01 — the `noop` function of internal/util/debuglog. util.debuglog(set, cb) calls cb with the section's
// debug implementation the first time its logger is used; for a section that NODE_DEBUG does not enable that is
// one module-level function `noop`, the same for every disabled section and every caller (Node's own modules
// included), also cached in the module-level `debugImpls` object. It is no property of any export: it is reached
// only as the callback argument Node passes.
// Technique: put(tag) gets the shared noop through the callback and defines a non-enumerable own property
// 'atk:'+tag on it; get(tag) gets it again the same way and looks for the property.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the function frozen so put
// fails: ATK-PUT-FAILED), or exit 4 if util.debuglog is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import util from 'node:util';

function sharedNoop() {
  let got;
  const logger = util.debuglog('atk_g01', (fn) => { got = fn; });
  logger('atk-g01'); // disabled section: prints nothing, but hands the implementation to the callback
  return typeof got === 'function' ? got : undefined;
}
export const stash = {
  put(tag) {
    const f = sharedNoop();
    Object.defineProperty(f, 'atk:' + tag, { value: 'alive', enumerable: false, writable: true, configurable: true });
  },
  get(tag) {
    const f = sharedNoop();
    return f && Object.prototype.hasOwnProperty.call(f, 'atk:' + tag) ? f['atk:' + tag] : undefined;
  },
};
export default memoryJournal('g01-debuglog-noop', verified('g01-debuglog-noop', stash));
