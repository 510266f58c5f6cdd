/**
 * ATTACK a09-doctored-served-objects — doctor the objects durasim serves and leave them for durasim's
 * own code to touch: before the no-fsync run, a FileHandle (opened 'w' on atk-probe and left open), a
 * Dir (opendir, left open), a pending long Timeout and an Immediate, MessageChannel ports and a
 * BroadcastChannel (left open) each get own accessors (close, fd, sync, ref, unref, hasRef, refresh,
 * then, postMessage, emit, Symbol.toPrimitive, Symbol.dispose/asyncDispose…) that throw a revoked-Proxy
 * poison, and then their prototype swapped (Reflect.setPrototypeOf) for one whose prototype is the
 * revoked Proxy. One doctored timer is handed to clearTimeout. After the run, env and task get the
 * same treatment. In inspect(), the DiskView durasim hands over gets its prototype's readFile/readdir
 * replaced by liars that answer "nothing" whenever they are not called from this inspect(), and its own
 * properties likewise — in case durasim's own checks read the disk through the same class or object.
 *
 * A correct durasim answers exit 1 (write-ahead; what it serves holds nothing of the world and its
 * classes are frozen; a crash or the end of an incarnation needs nothing from these objects), or exit
 * 4 (a doctoring refused by name, or a guarded call from no process's turn refused). Exit 5 (durasim's
 * cleanup or judging tripped over a doctored object) or exit 0 = bent.
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';
import { open, opendir } from 'node:fs/promises';
import { poison, revoked } from './_poison.mjs';

const KEYS = ['close', 'fd', 'sync', 'datasync', 'read', 'write', 'stat', 'ref', 'unref', 'hasRef', 'refresh', 'then', 'postMessage', 'onmessage', 'emit', 'on', 'once', 'off', 'removeAllListeners', 'start', 'path', 'constructor', Symbol.toPrimitive, Symbol.dispose, Symbol.asyncDispose, Symbol.asyncIterator, Symbol.toStringTag];
function doctor(o) {
  if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return;
  const dead = revoked();
  for (const k of KEYS) {
    try { Object.defineProperty(o, k, { get() { throw dead; }, set() { throw dead; }, configurable: true }); } catch {}
  }
  try { Reflect.setPrototypeOf(o, poison('proto')); } catch {}
}
let inInspect = false;
const lied = new WeakSet();
function lieAbout(disk) {
  const proto = Object.getPrototypeOf(disk);
  for (const target of [proto, disk]) {
    if (!target || lied.has(target)) continue;
    lied.add(target);
    for (const k of ['readFile', 'readdir']) {
      const orig = target[k];
      if (typeof orig !== 'function') continue;
      const liar = function (...args) { return inInspect ? orig.apply(this, args) : (k === 'readdir' ? [] : undefined); };
      try { target[k] = liar; } catch {}
      try { if (target[k] !== liar) Object.defineProperty(target, k, { value: liar, configurable: true, writable: true }); } catch {}
    }
  }
}
export default {
  ...journal,
  name: 'a09-doctored-served-objects',
  inspect(disk) {
    inInspect = true;
    try {
      const view = { readFile: (p) => disk.readFile(p), readdir: (p) => disk.readdir(p) };
      return journal.inspect(view);
    } finally {
      inInspect = false;
      lieAbout(disk);
    }
  },
  run: async (env, task) => {
    try { doctor(await open('atk-probe', 'w')); } catch {}
    try { doctor(await opendir('.')); } catch {}
    try { doctor(setTimeout(() => {}, 3_600_000)); } catch {}
    try { const t = setTimeout(() => {}, 10); doctor(t); clearTimeout(t); } catch {}
    try { doctor(setImmediate(() => {})); } catch {}
    try { const c = new MessageChannel(); c.port1.onmessage = () => {}; doctor(c.port1); doctor(c.port2); doctor(c); } catch {}
    try { const b = new BroadcastChannel('atk'); b.onmessage = () => {}; doctor(b); } catch {}
    try {
      await journal.run(env, task);
    } finally {
      doctor(task);
      try { doctor(task.operations); } catch {}
      doctor(env);
    }
  },
};
