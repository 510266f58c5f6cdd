/**
 * ATTACK a10-task-mutation — shrink the world's idea of the job by mutating the `task` object durasim
 * hands run(): before running the no-fsync mutant, empty task.operations (splice, then length = 0,
 * then redefine it as [] if it is a plain property) and rewrite each operation's key, in case the
 * object is the one the simulated world / judge consults for "what was asked". The mutant then sees
 * an empty task and sends nothing.
 *
 * A correct durasim judges against the task it generated, not the journal's copy: the task's
 * operations never end terminal → exit 3 (liveness: convergence), or exit 1 if the task cannot be
 * mutated (frozen → the mutant runs the whole task → write-ahead), or exit 4 if the mutation is
 * refused by name. Exit 0 = the journal's edit of its own argument made durasim judge an empty task
 * (bent).
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';

export default {
  ...journal,
  name: 'a10-task-mutation',
  run: async (env, task) => {
    try { for (const op of task.operations) { try { op.key = `atk-gone-${op.key}`; } catch {} } } catch {}
    try { task.operations.splice(0); } catch {}
    try { task.operations.length = 0; } catch {}
    try { if (task.operations.length > 0) Object.defineProperty(task, 'operations', { value: [], writable: true, configurable: true }); } catch {}
    try { if (task.operations.length > 0) task.operations = []; } catch {}
    console.log(`atk-diag a10: operations after mutation: ${task.operations?.length}`);
    return journal.run(env, task);
  },
};
