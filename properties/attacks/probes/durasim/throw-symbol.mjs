// Tries: run() throws a Symbol (which cannot be turned into a string implicitly).
// Expected: finding — the journal dies of its own error every time (exit 3), never exit 5.
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-symbol',
  async run() {
    throw Symbol('attack');
  },
  inspect: (disk) => good.inspect(disk),
};
