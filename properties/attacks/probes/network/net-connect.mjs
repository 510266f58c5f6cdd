// Tries: net.connect to the runner's real TCP canary on 127.0.0.1.
// Expected: refused — sockets are refused by name (README "The sandbox").
// API: net.connect|connect
import { connect } from 'node:net';
import { probe, env } from '../../lib/probe.mjs';

export default probe('net-connect', () => new Promise((done) => connect(Number(env('ATTACK_PORT')), '127.0.0.1').on('connect', done).on('error', done)));
