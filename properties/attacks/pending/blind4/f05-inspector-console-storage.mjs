// f05 — V8 inspector's console message storage (V8ConsoleMessageStorage of context group 1): every call
// to the V8 console (node:inspector's `console`, = the VM console, not Node's) is stored by V8 even when
// no inspector session is connected (up to 1000 messages), and replayed as Runtime.consoleAPICalled to
// any session that sends Runtime.enable later. C++ state of the isolate's inspector; nothing in JS.
// Technique: put(tag) inspector.console.log('atk-f05-mark', tag) (prints nothing); get(tag) connects an
// in-thread inspector.Session, listens for Runtime.consoleAPICalled, posts Runtime.enable and
// Runtime.disable (dispatched synchronously), disconnects, and looks for a replayed message with the tag.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the stored messages gone at the next incarnation), or exit 4 if
// node:inspector is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import inspector from 'node:inspector';

const MARK = 'atk-f05-mark';
function replayed() {
  const seen = new Set();
  const s = new inspector.Session();
  s.connect();
  try {
    s.on('Runtime.consoleAPICalled', (m) => {
      const a = m?.params?.args ?? [];
      if (a[0]?.value === MARK && typeof a[1]?.value === 'string') seen.add(a[1].value);
    });
    s.post('Runtime.enable');
    s.post('Runtime.disable');
  } finally { s.disconnect(); }
  return seen;
}
export const stash = {
  put(tag) { inspector.console.log(MARK, tag); },
  get(tag) { return replayed().has(tag) ? 'alive' : undefined; },
};
export default memoryJournal('f05-inspector-console-storage', verified('f05-inspector-console-storage', stash));
