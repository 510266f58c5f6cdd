// Tries: tls.connect to the real TCP canary.
// Expected: refused — tls is guarded whole and not served (docs/adapters.md "What the sandbox does").
// API: tls
import { connect } from 'node:tls';
import { probe, env } from '../../lib/probe.mjs';

export default probe('tls-connect', () => new Promise((done) => connect({ host: '127.0.0.1', port: Number(env('ATTACK_PORT')), rejectUnauthorized: false }).on('secureConnect', done).on('error', done)));
