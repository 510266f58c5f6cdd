// Tries: run() returns a thenable instead of a promise; its then() (called by durasim's await) writes the canary.
// Expected: served — then() is the journal's code in its run: its write is served (ENOENT), never real.
import good from '../../lib/good.mjs';
import { escapeWrite } from '../../lib/probe.mjs';

export default {
  name: 'attack-thenable-from-run',
  run(env, task) {
    return {
      then(resolve, reject) {
        escapeWrite('thenable');
        good.run(env, task).then(resolve, reject);
      },
    };
  },
  inspect: (disk) => good.inspect(disk),
};
