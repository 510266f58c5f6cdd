// Tries: run() throws undefined (not an Error) in every incarnation.
// Expected: finding — the journal dies of its own error every time: journal-error / convergence (exit 3).
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-undefined',
  async run() {
    throw undefined;
  },
  inspect: (disk) => good.inspect(disk),
};
