// Tries: http.request to the real TCP canary on 127.0.0.1 (it answers a token in an HTTP body).
// Expected: served — the node:http client is served: another host than the service is ENOTFOUND (docs/adapters.md Path 1).
// Oracle: the canary's token in the body proves a real connection.
// Revised: finding — node:http is served through the same fake service: a request to another host is the
//   routed-requests violation (exit 1), the canary never reached.
import { request } from 'node:http';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('http-request-loopback', () => new Promise((done) => {
  const req = request({ host: '127.0.0.1', port: Number(env('ATTACK_PORT')), path: '/http' }, (res) => {
    let body = '';
    res.on('data', (chunk) => { body += chunk; }).on('end', () => done(body.includes(env('ATTACK_NET_TOKEN')) && leak('http.request reached a real server', body)));
  });
  req.on('error', done).end();
}));
