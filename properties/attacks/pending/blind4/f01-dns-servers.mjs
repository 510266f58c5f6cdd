// f01 — the c-ares channel of dns's default resolver: the server list set by dns.setServers() lives in
// C++ (the ChannelWrap behind the module-level defaultResolver of internal/dns/utils), not in any JS
// property. A walk of the dns exports meets only functions; nothing there shows or restores it.
// Technique: put(tag) appends one IPv6 address derived from the tag (fd00:a7c0:dead:beef:xxxx:xxxx:xxxx:xxxx,
// ULA, never reached in practice; the servers already there are kept in front) with dns.setServers;
// get(tag) looks for that address in dns.getServers() (and dns.promises.getServers()).
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the server list back to its original at the next incarnation,
// or setServers refused so put fails: ATK-PUT-FAILED), or exit 4 if dns is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import dns from 'node:dns';

function fnv(s, seed) {
  let x = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x >>> 0;
}
// Every group has its top bit set: four hex digits, never zero, so inet_ntop prints it exactly so.
const g = (v) => ((v & 0x7fff) | 0x8000).toString(16);
function addr(tag) {
  const a = fnv(tag, 1), b = fnv(tag, 2);
  return `fd00:a7c0:dead:beef:${g(a >>> 16)}:${g(a)}:${g(b >>> 16)}:${g(b)}`;
}
function lists() {
  const out = [];
  try { out.push(dns.getServers()); } catch {}
  try { out.push(dns.promises.getServers()); } catch {}
  return out;
}
export const stash = {
  put(tag) {
    const a = addr(tag);
    const cur = dns.getServers();
    if (!cur.some((s) => s.toLowerCase() === a)) dns.setServers([...cur, a]);
  },
  get(tag) {
    const a = addr(tag);
    for (const l of lists()) if (l.some((s) => String(s).toLowerCase() === a)) return 'alive';
    return undefined;
  },
};
export default memoryJournal('f01-dns-servers', verified('f01-dns-servers', stash));
