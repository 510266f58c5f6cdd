// Tries: unbounded recursion in run() (a stack overflow the journal does not catch).
// Expected: finding — the journal dies of its own RangeError every time (journal-error, exit 3).
import good from '../../lib/good.mjs';

const down = (n) => down(n + 1) + 1;
export default {
  name: 'attack-deep-recursion',
  async run() {
    down(0);
  },
  inspect: (disk) => good.inspect(disk),
};
