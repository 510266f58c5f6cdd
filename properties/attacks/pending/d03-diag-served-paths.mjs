// DIAGNOSTIC d03 (not an attack): like a03, but labels the path to each object the tag is found on,
// and the first incarnation of a worker removes the tag everywhere first (so a restarted incarnation's
// finds come from an earlier incarnation of the same scenario).
import { memoryJournal } from './_memjournal.mjs';
import { open, opendir, stat, access } from 'node:fs/promises';
import { isIntrinsic } from './_walk.mjs';

async function roots(env, task) {
  const out = [['env', env], ['task', task]];
  try { const h = await open('.', 'r'); out.push(['FileHandle', h]); await h.close(); } catch {}
  try { const d = await opendir('.'); out.push(['Dir', d]); await d.close(); } catch {}
  try { out.push(['Stats', await stat('.')]); } catch {}
  try { await stat('atk-no-such-file'); } catch (e) { out.push(['fsError', e]); }
  try { const t = setTimeout(() => {}, 1); out.push(['Timeout', t]); clearTimeout(t); } catch {}
  try { const i = setImmediate(() => {}); out.push(['Immediate', i]); clearImmediate(i); } catch {}
  try { const c = new MessageChannel(); out.push(['MessagePort', c.port1]); c.port1.close(); c.port2.close(); } catch {}
  try { const b = new BroadcastChannel('atk-probe'); out.push(['BroadcastChannel', b]); b.close(); } catch {}
  if (task?.service?.query) {
    try { const r = await fetch(`${task.service.url}/operations/atk-probe`, { signal: AbortSignal.timeout(2000) }); out.push(['Response', r]); await r.text().catch(() => {}); } catch {}
  }
  return out;
}
function labelled(rs, maxDepth = 2) {
  const seen = new Set(); const out = []; const q = rs.map(([l, o]) => [l, o, 0]);
  for (let i = 0; i < q.length; i++) {
    const [l, o, d] = q[i];
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o) || isIntrinsic(o)) continue;
    seen.add(o); out.push([l, o]);
    if (d >= maxDepth) continue;
    for (const k of Reflect.ownKeys(o)) { try { const de = Object.getOwnPropertyDescriptor(o, k); if (de && 'value' in de) q.push([`${l}.${String(k)}`, de.value, d + 1]); } catch {} }
    try { q.push([`${l}.__proto__`, Object.getPrototypeOf(o), d + 1]); } catch {}
  }
  return out;
}
let objs = [];
const stash = {
  get(tag) { const f = objs.filter(([, o]) => { try { return Object.getOwnPropertyDescriptor(o, tag)?.value === 'alive'; } catch { return false; } }).map(([l, o]) => `${l}${Object.isFrozen(o) ? '' : ' (not frozen)'}`); return f.length ? f.join('; ') : undefined; },
  put(tag) { for (const [, o] of objs) { try { if (Object.isExtensible(o)) o[tag] = 'alive'; } catch {} } },
};
const inner = memoryJournal('d03-diag-served-paths', stash);
export default {
  ...inner,
  async run(env, task) {
    objs = labelled(await roots(env, task));
    const tag = `atk-mem:${task.id}:${env.pid}`;
    if (await access(`atk-seen-${env.pid}`).then(() => false, () => true)) {
      console.log(`atk-diag first incarnation, before clearing: ${stash.get(tag)}`);
      for (const [, o] of objs) { try { delete o[tag]; } catch {} }
    }
    return inner.run(env, task);
  },
};
