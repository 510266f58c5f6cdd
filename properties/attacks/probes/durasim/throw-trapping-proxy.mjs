// Tries: run() throws a Proxy whose every trap throws (get, has, ownKeys, getPrototypeOf…).
// Expected: finding — the journal dies of its own error every time (exit 3), never exit 5.
import good from '../../lib/good.mjs';

const trap = () => { throw new Error('attack: trap'); };
export default {
  name: 'attack-throw-trapping-proxy',
  async run() {
    throw new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap, apply: trap });
  },
  inspect: (disk) => good.inspect(disk),
};
