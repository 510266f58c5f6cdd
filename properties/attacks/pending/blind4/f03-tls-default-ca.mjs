// f03 — the thread's default CA store of tls: tls.setDefaultCACertificates(certs) (added in v24.5.0, backported
// to the 22 line) replaces it in C++ (crypto binding state, documented as affecting "only the current Node.js
// thread"), and tls.getCACertificates('default') reads it back. No JS object holds it.
// Technique: a Bloom filter over the bundled roots (tls.rootCertificates, ~116 of them, all in the default
// store at start): each tag picks 2 of them by hashes of the tag; put removes those from the current
// default store (keeping earlier removals), get(tag) says present iff both are absent from the store.
// Certificates are compared by their base64 body: once set, the store hands them back re-serialized.
// Node: 22, 24 (self-test passes); void on 20 (no tls.getCACertificates/setDefaultCACertificates: put throws).
// Expected of a correct durasim: exit 1 (the store back to default at the next incarnation, or the setter
// refused so put fails: ATK-PUT-FAILED), or exit 4 if tls is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import tls from 'node:tls';

const K = 2;
function fnv(s, seed) {
  let x = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x >>> 0;
}
const body = (c) => String(c).replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
function picks(tag) {
  const roots = tls.rootCertificates;
  return Array.from({ length: K }, (_, i) => roots[fnv(tag, i) % roots.length]);
}
export const stash = {
  put(tag) {
    const gone = new Set(picks(tag).map(body));
    const cur = tls.getCACertificates('default');
    tls.setDefaultCACertificates(cur.filter((c) => !gone.has(body(c))));
  },
  get(tag) {
    if (typeof tls.getCACertificates !== 'function') return undefined;
    const cur = new Set(tls.getCACertificates('default').map(body));
    return picks(tag).every((c) => !cur.has(body(c))) ? 'alive' : undefined;
  },
};
export default memoryJournal('f03-tls-default-ca', verified('f03-tls-default-ca', stash));
