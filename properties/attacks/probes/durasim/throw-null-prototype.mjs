// Tries: run() throws an object with no prototype (no toString, no valueOf).
// Expected: finding — the journal dies of its own error every time (exit 3), never exit 5.
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-null-prototype',
  async run() {
    throw Object.create(null);
  },
  inspect: (disk) => good.inspect(disk),
};
