// Tries: net.createServer().listen on a real port of 127.0.0.1.
// Expected: refused — sockets are refused by name (README "The sandbox").
// API: createServer|listen
import { createServer } from 'node:net';
import { probe } from '../../lib/probe.mjs';

export default probe('net-server-listen', () => new Promise((done) => {
  const server = createServer().on('error', done);
  server.listen(0, '127.0.0.1', () => server.close(done));
}));
