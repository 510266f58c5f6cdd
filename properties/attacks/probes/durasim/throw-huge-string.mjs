// Tries: run() throws a 100-million-character string.
// Expected: finding — the journal dies of its own error every time (exit 3), reported cut, never exit 5.
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-huge-string',
  async run() {
    throw 'x'.repeat(100_000_000);
  },
  inspect: (disk) => good.inspect(disk),
};
