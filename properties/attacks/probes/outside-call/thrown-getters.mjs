// Tries: throws (from run) an object whose message and stack getters write the canary while durasim formats it.
// Expected: finding — the journal dies of its own error (journal-error, exit 3); the getters' writes are never real.
import { escapeWrite } from '../../lib/probe.mjs';
import good from '../../lib/good.mjs';

export default {
  name: 'attack-thrown-getters',
  async run() {
    throw {
      get message() { escapeWrite('thrown-message'); return 'attack: odd error'; },
      get stack() { escapeWrite('thrown-stack'); return 'attack: odd stack'; },
    };
  },
  inspect: (disk) => good.inspect(disk),
};
