/**
 * ATTACK a04-mem-lingering-async — memory carried across a crash by asynchronous things the dead
 * incarnation left running: a setInterval (global and node:timers) that keeps writing the tag onto
 * globalThis, a long setTimeout that writes it later, a BroadcastChannel that answers "ping" with the
 * tag, a MessagePort pair whose listener rewrites it, and an AbortSignal.timeout listener. The next
 * incarnation waits 250 ms (virtual) then looks for the tag / asks the channel.
 * Wraps the reference journal; the defect (token in a file + no-fsync) shows only when memory is lost.
 *
 * A correct durasim answers exit 1 (a crash ends every timer and channel of its process, and
 * globalThis is put back → memory lost → defect seen), or exit 4. Exit 0 = a timer or channel of a
 * dead incarnation carried memory into the next.
 */
import { memoryJournal } from './_memjournal.mjs';
import timers from 'node:timers';

const armed = []; // this incarnation's intervals, cleared when run() returns (a crash leaves them armed)
const key = (tag) => `__atk_async_${tag}`;
const stash = {
  async get(tag) {
    let answer;
    let bc;
    try {
      bc = new BroadcastChannel(`atk-${tag}`);
      bc.onmessage = (m) => { if (m.data === 'alive') answer = 'broadcast'; };
      bc.postMessage('ping');
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
    try { bc?.close(); } catch {}
    const g = globalThis[key(tag)];
    if (g) return `globalThis via ${g}`;
    return answer;
  },
  async put(tag) {
    const k = key(tag);
    try { armed.push(setInterval(() => { globalThis[k] = 'setInterval'; }, 100)); } catch {}
    try { armed.push(timers.setInterval(() => { globalThis[k] = 'timers.setInterval'; }, 110)); } catch {}
    try { setTimeout(() => { globalThis[k] = 'setTimeout-late'; }, 200); } catch {}
    try {
      const bc = new BroadcastChannel(`atk-${tag}`);
      bc.onmessage = (m) => { if (m.data === 'ping') bc.postMessage('alive'); };
    } catch {}
    try {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => { globalThis[k] = 'MessagePort'; };
      armed.push(setInterval(() => port2.postMessage('tick'), 120));
    } catch {}
    try { AbortSignal.timeout(150).addEventListener('abort', () => { globalThis[k] = 'AbortSignal.timeout'; }); } catch {}
    globalThis[k] = 'same-incarnation';
  },
};
const inner = memoryJournal('a04-mem-lingering-async', stash);
export default {
  ...inner,
  async run(env, task) {
    try { return await inner.run(env, task); } finally { for (const t of armed) clearInterval(t); }
  },
};
