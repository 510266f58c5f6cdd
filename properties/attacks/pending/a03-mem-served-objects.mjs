/**
 * ATTACK a03-mem-served-objects — memory across a crash kept on what durasim hands the journal at run
 * time, and on their classes: the `env` object and everything reachable from it (env.fs, env.clock…,
 * its prototype chain), the `task` argument and its nested objects, a FileHandle (a directory handle
 * on '.'), a Dir from opendir, a Stats from stat, a Timeout and an Immediate, MessageChannel ports, a
 * BroadcastChannel, the error an fs call throws (ENOENT) — each object, its prototype chain and its
 * constructor, walked two levels deep, the tag left as a property / Map key / Set member. With a
 * service that answers queries, also a fetch Response and an http.request ClientRequest/IncomingMessage
 * (GET /operations/atk-probe, a query of a key never sent).
 * Wraps the reference journal; the defect (token in a file + no-fsync) shows only when memory is lost.
 *
 * A correct durasim answers exit 1 (served objects hold nothing, their classes are frozen, env and
 * task are the new incarnation's own → memory lost → defect seen), or exit 4 (refused by name).
 * Exit 0 = memory survived on a served object, its class, env or task.
 * (v2 after the first run: the probe fetch/http.get got timeouts; v1 deadlocked on a dropped response.)
 */
import { memoryJournal } from './_memjournal.mjs';
import { open, opendir, stat } from 'node:fs/promises';
import http from 'node:http';
import { reachable, stashIn, findIn } from './_walk.mjs';

async function servedObjects(env, task) {
  const out = [env, task];
  try { const h = await open('.', 'r'); out.push(h); await h.close(); } catch {}
  try { const d = await opendir('.'); out.push(d); await d.close(); } catch {}
  try { out.push(await stat('.')); } catch {}
  try { await stat('atk-no-such-file'); } catch (e) { out.push(e); }
  try { const t = setTimeout(() => {}, 1); out.push(t); clearTimeout(t); } catch {}
  try { const i = setImmediate(() => {}); out.push(i); clearImmediate(i); } catch {}
  try { const c = new MessageChannel(); out.push(c, c.port1, c.port2); c.port1.close(); c.port2.close(); } catch {}
  try { const b = new BroadcastChannel('atk-probe'); out.push(b); b.close(); } catch {}
  if (task?.service?.query && typeof task.service.url === 'string') {
    const url = `${task.service.url}/operations/atk-probe`;
    try { const r = await fetch(url, { signal: AbortSignal.timeout(2000) }); out.push(r, r.headers); await r.text().catch(() => {}); } catch {}
    try {
      await new Promise((resolve) => {
        const req = http.get(url, { timeout: 2000 }, (res) => { out.push(res); res.resume(); res.on('end', resolve); res.on('error', resolve); });
        out.push(req);
        req.on('error', resolve);
        req.on('timeout', () => { req.destroy(); resolve(); });
      });
    } catch {}
  }
  return out;
}
let last = [];
const stash = {
  async get(tag) {
    // The served objects of this incarnation and the env/task of this call (the classes are shared, if anything is).
    const found = findIn(reachable(last, { maxDepth: 2 }), tag);
    return found.length ? found.slice(0, 8).join('; ') : undefined;
  },
  async put(tag, env, task) {
    last = reachable(await servedObjects(env, task), { maxDepth: 2 });
    stashIn(last, tag);
  },
};
// get() runs before put() in each incarnation: collect this incarnation's objects first.
const wrapped = memoryJournal('a03-mem-served-objects', stash);
export default {
  ...wrapped,
  async run(env, task) {
    last = reachable(await servedObjects(env, task), { maxDepth: 2 });
    return wrapped.run(env, task);
  },
};
