// g08 — prototype of the native SocketAddress handle (C++ function template of internalBinding('block_list'),
// one prototype object per thread's context). new net.SocketAddress(options) keeps its handle under an own
// symbol property Symbol(kHandle); BlockList rules and net's address handling use the same native class. The
// binding is not reachable through process.binding; only an instance constructed with arguments leads to it.
// Technique: put(tag) constructs new net.SocketAddress({ address: '127.0.0.1', port: 1 }) (no socket is
// opened), takes the value of its Symbol(kHandle) and defines a non-enumerable own property 'atk:'+tag on that
// value's prototype; get(tag) does the same with a fresh instance and looks for the property.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the prototype frozen so put
// fails: ATK-PUT-FAILED), or exit 4 if net.SocketAddress is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import net from 'node:net';

function proto() {
  const a = new net.SocketAddress({ address: '127.0.0.1', port: 1 });
  const s = Object.getOwnPropertySymbols(a).find((x) => x.description === 'kHandle');
  const h = s ? a[s] : undefined;
  if (!h || typeof h !== 'object') throw new Error('no native handle');
  return Object.getPrototypeOf(h);
}
export const stash = {
  put(tag) { Object.defineProperty(proto(), 'atk:' + tag, { value: 'alive', enumerable: false, writable: true, configurable: true }); },
  get(tag) { const p = proto(); return Object.prototype.hasOwnProperty.call(p, 'atk:' + tag) ? p['atk:' + tag] : undefined; },
};
export default memoryJournal('g08-socketaddress-handle-proto', verified('g08-socketaddress-handle-proto', stash));
