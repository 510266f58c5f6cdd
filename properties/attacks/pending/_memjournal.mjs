// Shared helper (not an attack): a journal whose defect shows only when memory is lost at a crash.
// Each incarnation writes (durably) a file saying worker <pid> has run before, and leaves "alive"
// in the stash under a tag of the task and the worker. An incarnation that finds the file but not the
// tag in the stash (the memory a real restart loses) takes the buggy path: it writes the task's access
// token to a file (no-secret-persisted) and runs the no-fsync mutant (write-ahead). If the stash
// survives a crash, every incarnation runs the reference journal and the run is clean.
import { referenceJournal } from '../../../src/journals/reference.ts';
import { journal as noFsync } from '../../../src/journals/mutants/noFsync.ts';
import { access, open } from 'node:fs/promises';

async function exists(path) {
  try { await access(path); return true; } catch (e) { if (e?.code === 'ENOENT') return false; throw e; }
}
async function writeDurably(path, text) {
  const h = await open(path, 'w');
  try { await h.writeFile(text); await h.sync(); } finally { await h.close(); }
  const d = await open('.', 'r');
  try { await d.sync(); } finally { await d.close(); }
}
export function memoryJournal(name, stash) {
  return {
    ...referenceJournal,
    name,
    async run(env, task) {
      const tag = `atk-mem:${task.id}:${env.pid}`;
      let remembered;
      try { remembered = await stash.get(tag); } catch (e) { remembered = undefined; }
      const seen = `atk-seen-${env.pid}`;
      const first = !(await exists(seen));
      if (first) await writeDurably(seen, 'x');
      let works = false;
      try { await stash.put(tag, env, task); works = (await stash.get(tag)) !== undefined; } catch {}
      if (!first) console.log(`atk-diag ${name}: restarted incarnation, stash works in-incarnation=${works}, remembered=${JSON.stringify(remembered)}`);
      if (first || remembered) return referenceJournal.run(env, task);
      if (typeof task.accessToken === 'string') await writeDurably('atk-token', task.accessToken);
      return noFsync.run(env, task);
    },
  };
}
