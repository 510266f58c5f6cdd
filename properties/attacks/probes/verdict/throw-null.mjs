// Tries: run() throws null in every incarnation.
// Expected: finding — the journal dies of its own error every time: journal-error / convergence (exit 3).
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-null',
  async run() {
    throw null;
  },
  inspect: (disk) => good.inspect(disk),
};
