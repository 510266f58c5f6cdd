// b08 — process as a plain EventEmitter, bypassing whatever process.on is served: the listener is
// added with EventEmitter.prototype.on.call(process, ...), so it lands in process._events (an object
// held by an own property of process; its contents are deeper than process's own properties).
// Technique: put(tag) adds a no-op listener for the event name 'atk:'+tag; get(tag) asks
// EventEmitter.prototype.listenerCount.call(process, 'atk:'+tag). A fresh process has no such
// listener.
// Expected of a correct durasim: exit 1 (listeners of the dead incarnation gone), or exit 4 if the
// raw call is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import { EventEmitter } from 'node:events';

function noop() {}
export const stash = {
  put(tag) { EventEmitter.prototype.on.call(process, 'atk:' + tag, noop); },
  get(tag) { return EventEmitter.prototype.listenerCount.call(process, 'atk:' + tag) > 0 ? 'alive' : undefined; },
};
export default memoryJournal('b08-process-raw-emitter', verified('b08-process-raw-emitter', stash));
