// Tries: process.exit(0) right after the journal's work, in every incarnation, on the journal that never fsyncs.
// Expected: finding — a clean exit code of the process says nothing about the journal (exit 1).
import unsynced from '../../lib/unsynced.mjs';

export default {
  name: 'attack-process-exit-zero-after-run',
  async run(env, task) {
    await unsynced.run(env, task);
    process.exit(0);
  },
  inspect: (disk) => unsynced.inspect(disk),
};
