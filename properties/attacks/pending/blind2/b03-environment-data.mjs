// b03 — worker_threads' environment data: setEnvironmentData/getEnvironmentData, a per-thread Map
// inside Node's worker_threads internals (meant to be inherited by new Workers).
// Technique: put(tag) calls setEnvironmentData('atk:'+tag, 'alive'); get(tag) reads
// getEnvironmentData('atk:'+tag). A new process (main thread) starts with empty environment data.
// Expected of a correct durasim: exit 1 (a served, per-incarnation environment data), or exit 4 if
// these worker_threads functions are refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import * as wt from 'node:worker_threads';

export const stash = {
  put(tag) { wt.setEnvironmentData('atk:' + tag, 'alive'); },
  get(tag) { return wt.getEnvironmentData('atk:' + tag); },
};
export default memoryJournal('b03-environment-data', verified('b03-environment-data', stash));
