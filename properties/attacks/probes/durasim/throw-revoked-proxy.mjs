// Tries: run() throws a revoked Proxy (every look at it throws a TypeError).
// Expected: finding — the journal dies of its own error every time (exit 3), never exit 5.
import good from '../../lib/good.mjs';

export default {
  name: 'attack-throw-revoked-proxy',
  async run() {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    throw proxy;
  },
  inspect: (disk) => good.inspect(disk),
};
