/**
 * DIAGNOSTIC d01 (copy of a01 with per-scenario clearing) — ATTACK a01-mem-deep-builtins — memory across a crash, kept one level deeper than the own
 * properties durasim puts back: objects hanging off `process` (stdout, stderr, versions, release,
 * features, argv, execArgv, allowedNodeEnvironmentFlags, the `_events` behind process.on), off
 * `console`, `navigator`, `performance`, and off builtin modules (path.posix/win32, util.types,
 * util.inspect.colors/styles, http.STATUS_CODES/METHODS, stream.Readable's prototype, the CJS
 * Module._cache and module.builtinModules, string_decoder's prototype, the diagnostics_channel registry).
 * Wraps the reference journal: the defect (token written to a file + no-fsync) shows only when the
 * memory is lost, as it is in a real restart.
 *
 * A correct durasim answers exit 1 (memory lost at every crash → no-secret-persisted / write-ahead
 * after a crash), or exit 4 if it refuses one of these places by name / reports module state that
 * survived. Exit 0 = some deep place kept memory across a simulated crash (bent).
 * (Note: the README's known limits say a property set on process.stdout is not put back; if that is
 * the only channel, it is the documented limit.)
 */
import { memoryJournal } from './_memjournal.mjs';
import { places, arrays, stash } from './a01-mem-deep-builtins.mjs';
// DIAGNOSTIC: the first incarnation of a worker (no atk-seen file) first removes the tag from every place,
// so whatever a restarted incarnation finds was left by an earlier incarnation of the same scenario.
import { access } from 'node:fs/promises';
stash.clear = (tag) => {
  for (const [, o] of places()) { try { delete o[tag]; } catch {} }
  for (const [, a] of arrays()) { try { const i = a.indexOf(tag); if (i >= 0) a.splice(i, 1); } catch {} }
  try { process.allowedNodeEnvironmentFlags.delete(tag); } catch {}
  try { process.removeAllListeners(tag); } catch {}
};
const inner = memoryJournal('d01-diag-deep-builtins', stash);
export default {
  ...inner,
  async run(env, task) {
    const tag = `atk-mem:${task.id}:${env.pid}`;
    const first = await access(`atk-seen-${env.pid}`).then(() => false, () => true);
    if (first) { console.log(`atk-diag first incarnation found before clearing: ${stash.get(tag)}`); stash.clear(tag); }
    return inner.run(env, task);
  },
};
