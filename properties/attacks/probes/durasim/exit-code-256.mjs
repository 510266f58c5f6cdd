// Tries: process.exit(256) after the journal's work in every incarnation: in Node a process's exit status is
//   the code modulo 256, so this is a success.
// Expected: harmless — the process ended well, as in real Node (exit 0).
import good from '../../lib/good.mjs';

export default {
  name: 'attack-exit-code-256',
  async run(env, task) {
    await good.run(env, task);
    process.exit(256);
  },
  inspect: (disk) => good.inspect(disk),
};
