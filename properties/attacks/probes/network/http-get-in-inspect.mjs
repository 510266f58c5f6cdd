// Tries: http.get to the real TCP canary from inside inspect(), which runs with no process.
// Expected: refused — in inspect() the network is refused (docs/adapters.md "What the sandbox does").
// API: http|get
import { get } from 'node:http';
import good from '../../lib/good.mjs';
import { probe, env } from '../../lib/probe.mjs';

export default probe('http-get-in-inspect', null, {
  inspect(disk) {
    try {
      get({ host: '127.0.0.1', port: Number(env('ATTACK_PORT')), path: '/inspect' }).on('error', () => {});
    } catch {}
    return good.inspect(disk);
  },
});
