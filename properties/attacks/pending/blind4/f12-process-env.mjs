// f12 — the environment block: process.env is an interceptor object over the thread's real environment
// (Environment's env_vars, the libc environ on the main thread), not a plain property bag. A variable set
// there lives until the real process ends. It may well be served per incarnation; probed anyway, through
// every process object the journal can reach (the global, and node:process's default export).
// Technique: put(tag) sets ATK_F12_<hash of tag> = 'alive' in each reachable env; get(tag) reads it in each.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the variable gone at the next incarnation), or exit 4 if env
// writes are refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import * as proc from 'node:process';

function fnv(s, seed) {
  let x = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x >>> 0;
}
const key = (tag) => 'ATK_F12_' + fnv(tag, 0).toString(16) + '_' + fnv(tag, 1).toString(16);
function envs() {
  const out = [];
  try { out.push(globalThis.process.env); } catch {}
  try { out.push(proc.default.env); } catch {}
  try { out.push(proc.env); } catch {}
  return [...new Set(out.filter((e) => e && typeof e === 'object'))];
}
export const stash = {
  put(tag) { for (const e of envs()) { try { e[key(tag)] = 'alive'; } catch {} } },
  get(tag) { for (const e of envs()) { try { if (e[key(tag)] === 'alive') return 'alive'; } catch {} } return undefined; },
};
export default memoryJournal('f12-process-env', verified('f12-process-env', stash));
