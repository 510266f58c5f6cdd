// Tries: new net.Socket().connect(…) to the real TCP canary, the class instead of the helper.
// Expected: refused — sockets are refused by name (README "The sandbox").
// API: Socket
import { Socket } from 'node:net';
import { probe, env } from '../../lib/probe.mjs';

export default probe('net-socket-class', () => new Promise((done) => new Socket().connect(Number(env('ATTACK_PORT')), '127.0.0.1').on('connect', done).on('error', done)));
