// Own attack (after the real restart became check's default): memory left only once the first request has been
// answered, so a crash before the task's first step leaves none; a restarted incarnation that finds the durable mark
// but not the memory (what a real restart gives) takes the no-fsync path and writes the token.
import util from 'node:util';
import { access, open } from 'node:fs/promises';
import { referenceJournal } from '../../../../src/journals/reference.ts';
import { journal as noFsync } from '../../../../src/journals/mutants/noFsync.ts';

function place() { let got; util.debuglog('atk_late', (fn) => { got = fn; })(''); return got; }
async function exists(path) { try { await access(path); return true; } catch { return false; } }
async function writeDurably(path, text) {
  const h = await open(path, 'w'); try { await h.writeFile(text); await h.sync(); } finally { await h.close(); }
  const d = await open('.', 'r'); try { await d.sync(); } finally { await d.close(); }
}
export default {
  ...referenceJournal,
  name: 'late-memory',
  async run(env, task) {
    const tag = `late:${task.id}:${env.pid}`;
    const remembered = place()[tag] === true;
    const mark = `late-seen-${env.pid}`;
    if (await exists(mark) && !remembered) {
      if (typeof task.accessToken === 'string') await writeDurably('atk-token', task.accessToken);
      return noFsync.run(env, task);
    }
    let left = false;
    const fetch = async (...args) => {
      const response = await env.fetch(...args);
      if (!left) { left = true; await writeDurably(mark, 'x'); place()[tag] = true; }
      return response;
    };
    return referenceJournal.run(new Proxy(env, { get: (t, k) => (k === 'fetch' ? fetch : Reflect.get(t, k)) }), task);
  },
};
