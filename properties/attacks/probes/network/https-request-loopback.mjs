// Tries: https.request to the real TCP canary on 127.0.0.1 (a TLS client hello reaching it is a real connection).
// Expected: served — the node:https client is served: another host than the service is ENOTFOUND (docs/adapters.md Path 1).
// Revised: finding — node:https as node:http: the routed-requests violation (exit 1), the canary never
//   reached.
import { request } from 'node:https';
import { probe, env } from '../../lib/probe.mjs';

export default probe('https-request-loopback', () => new Promise((done) => {
  request({ host: '127.0.0.1', port: Number(env('ATTACK_PORT')), path: '/https', rejectUnauthorized: false }, done).on('error', done).end();
}));
