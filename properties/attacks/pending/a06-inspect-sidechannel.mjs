/**
 * ATTACK a06-inspect-sidechannel — inspect() is meant to read the DURABLE image it is handed. Here
 * run() mirrors every write it makes through env.fs that is not yet fsynced into globalThis (process
 * memory of the running incarnation, shared by the thread), and inspect() reads that mirror back on
 * top of the durable image: it reports unsynced records as if they were durable, to hide the
 * no-fsync mutant's write-ahead violation (no crash-free run would then show it).
 *
 * A correct durasim answers exit 1 (write-ahead in a fault-free run: what is durable at the request is
 * judged from the disk, not from what the journal's process remembers; or, if the lie goes through,
 * the crashes expose it as another violation), or exit 4 if inspect()'s reading of process memory is
 * refused. Exit 0 = inspect() laundered page-cache state into durable evidence.
 * (Diagnostic, separately: the same with --faults response,duplicate,user — no crash at all.)
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';

const M = () => (globalThis.__atkMirror ??= new Map()); // path → ops since its last fsync
const text = (d) => (typeof d === 'string' ? d : Buffer.from(d?.buffer ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : d ?? '').toString('utf8'));
const note = (path, op) => { const m = M(); const a = m.get(path) ?? []; a.push(op); m.set(path, a); };
const bind = (t, v) => (typeof v === 'function' ? v.bind(t) : v);

function wrapHandle(h, path, flags) {
  const f = typeof flags === 'string' ? flags : 'r';
  if (f.includes('w')) note(path, { t: 'replace', d: '' });
  return new Proxy(h, {
    get(t, k) {
      const v = Reflect.get(t, k);
      if (typeof v !== 'function') return v;
      return (...args) => {
        const r = v.apply(t, args);
        if (k === 'sync' || k === 'datasync') return Promise.resolve(r).then((x) => { M().delete(path); return x; });
        if (k === 'write' || k === 'appendFile' || k === 'writev') note(path, { t: 'append', d: k === 'writev' ? args[0].map(text).join('') : text(args[0]) });
        if (k === 'writeFile') note(path, f.includes('a') ? { t: 'append', d: text(args[0]) } : { t: 'replace', d: text(args[0]) });
        if (k === 'truncate') note(path, { t: 'truncate', n: args[0] ?? 0 });
        return r;
      };
    },
  });
}
function wrapFs(fs) {
  return new Proxy(fs, {
    get(t, k) {
      const v = Reflect.get(t, k);
      if (typeof v !== 'function') return v;
      if (k === 'open') return async (path, flags, ...rest) => wrapHandle(await v.call(t, path, flags, ...rest), path, flags);
      if (k === 'appendFile') return async (path, data, ...rest) => { const r = await v.call(t, path, data, ...rest); note(path, { t: 'append', d: text(data) }); return r; };
      if (k === 'writeFile') return async (path, data, ...rest) => { const r = await v.call(t, path, data, ...rest); note(path, { t: 'replace', d: text(data) }); return r; };
      if (k === 'rename') return async (a, b) => { const r = await v.call(t, a, b); const m = M(); m.set(b, [{ t: 'from', p: a }, ...(m.get(a) ?? [])]); m.delete(a); return r; };
      if (k === 'unlink') return async (p) => { const r = await v.call(t, p); M().set(p, [{ t: 'gone' }]); return r; };
      return v.bind(t);
    },
  });
}
function volatileView(disk) {
  return {
    readFile(p) {
      const ops = M().get(p);
      if (!ops) return disk.readFile(p);
      let content = ops[0]?.t === 'from' ? (disk.readFile(ops[0].p) ?? disk.readFile(p)) : disk.readFile(p);
      for (const op of ops) {
        if (op.t === 'replace') content = op.d;
        else if (op.t === 'append') content = (content ?? '') + op.d;
        else if (op.t === 'truncate') content = (content ?? '').slice(0, op.n);
        else if (op.t === 'gone') content = undefined;
      }
      return content;
    },
    readdir: (p) => disk.readdir(p),
  };
}
export default {
  ...journal,
  name: 'a06-inspect-sidechannel',
  inspect(disk) {
    try { return journal.inspect(volatileView(disk)); } catch { return journal.inspect(disk); }
  },
  run: async (env, task) => {
    const fs = wrapFs(env.fs);
    const wrapped = new Proxy(env, { get: (t, k) => (k === 'fs' ? fs : bind(t, Reflect.get(t, k))) });
    return journal.run(wrapped, task);
  },
};
