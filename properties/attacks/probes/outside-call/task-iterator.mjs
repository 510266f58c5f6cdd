// Tries: replaces task.operations' Symbol.iterator with a generator that writes the canary, in case durasim
//   iterates the same task object later (the judge, the report).
// Expected: harmless — the journal's own iteration is served; durasim's must not run journal code for real.
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('task-iterator', (env, task) => {
  task.operations[Symbol.iterator] = function* () {
    escapeWrite('task-iterator');
    yield* Array.prototype.values.call(this);
  };
});
