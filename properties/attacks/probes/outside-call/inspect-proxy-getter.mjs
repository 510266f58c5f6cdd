// Tries: inspect() returns a Proxy of its records whose get trap writes the canary while durasim reads them.
// Expected: refused — code of inspect()'s answer runs with no process: its disk call is refused (docs/adapters.md).
// API: writeFileSync
import good from '../../lib/good.mjs';
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('inspect-proxy-getter', null, {
  inspect: (disk) => new Proxy(good.inspect(disk), {
    get(target, key, receiver) {
      escapeWrite('inspect-proxy');
      return Reflect.get(target, key, receiver);
    },
  }),
});
