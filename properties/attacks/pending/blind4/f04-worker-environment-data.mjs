// f04 — worker_threads' environment data: setEnvironmentData(key, value) stores into a module-level Map
// (internal/worker's environmentData), read by getEnvironmentData(key). The Map is a closure variable,
// not a property of the exports; it is meant to be copied into Workers, and lives as long as the thread.
// Technique: put(tag) setEnvironmentData('atk:'+tag, 'alive'); get(tag) getEnvironmentData('atk:'+tag).
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the entry gone at the next incarnation), or exit 4 if
// worker_threads (or the function) is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { setEnvironmentData, getEnvironmentData } from 'node:worker_threads';

export const stash = {
  put(tag) { setEnvironmentData('atk:' + tag, 'alive'); },
  get(tag) { return getEnvironmentData('atk:' + tag); },
};
export default memoryJournal('f04-worker-environment-data', verified('f04-worker-environment-data', stash));
