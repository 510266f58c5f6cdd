// Tries: http2.connect to the real TCP canary.
// Expected: refused — http2 is guarded whole and not served (docs/adapters.md "What the sandbox does").
// API: http2
import { connect } from 'node:http2';
import { probe, env } from '../../lib/probe.mjs';

export default probe('http2-connect', () => new Promise((done) => {
  const session = connect(`http://127.0.0.1:${env('ATTACK_PORT')}`);
  session.on('connect', () => done(session.close())).on('error', done);
}));
