// d03 — diagnostics_channel Channel OBJECTS that Node's own modules hold (not subscriptions): dc.channel(name)
// returns the one Channel a thread has for a name (a WeakRef map inside diagnostics_channel), and for
// names Node's internals keep in module-level constants (internal/worker's 'worker_threads', the ESM
// loader's 'tracing:module.import:*', console's 'console.*' on 22+, undici's, ...) that object lives as
// long as the thread. It is reachable only as dc.channel's return value.
// Technique: put(tag) sets an own property 'atk:'+tag on the Channel of each of these names; get(tag)
// looks on all of them. No subscribe(), no bindStore().
// Node: 20, 22, 24 (self-test passes on all three; in a worker thread 'worker_threads' and an undici
// channel are held on 20, more on 22/24).
// Expected of a correct durasim: exit 1 (channels handed to a journal are its incarnation's own, or
// their properties put back), or exit 4 if dc.channel / the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import dc from 'node:diagnostics_channel';

const NAMES = ['worker_threads', 'tracing:module.import:start', 'tracing:module.import:end', 'console.log', 'console.error',
  'console.info', 'console.warn', 'console.debug', 'process.execve', 'undici:client:sendHeaders', 'undici:request:create',
  'http.client.request.start', 'http.client.response.finish', 'net.client.socket', 'child_process'];
function channels() { const out = []; for (const n of NAMES) { try { out.push(dc.channel(n)); } catch {} } return out; }
export const stash = {
  put(tag) { for (const c of channels()) { try { c['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const c of channels()) { try { if (Object.prototype.hasOwnProperty.call(c, 'atk:' + tag)) return c['atk:' + tag]; } catch {} } return undefined; },
};
export default memoryJournal('d03-dc-internal-channel', verified('d03-dc-internal-channel', stash));
