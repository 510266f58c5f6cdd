// Tries: a UDP datagram to the runner's real UDP canary on 127.0.0.1.
// Expected: refused — dgram is guarded whole and not served (docs/adapters.md "What the sandbox does").
// API: dgram
import { createSocket } from 'node:dgram';
import { probe, env } from '../../lib/probe.mjs';

export default probe('dgram-send', () => new Promise((done) => {
  const socket = createSocket('udp4');
  socket.send('attack', Number(env('ATTACK_UDP_PORT')), '127.0.0.1', () => done(socket.close()));
}));
