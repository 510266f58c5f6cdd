// Tries: http.createServer().listen on a real port of 127.0.0.1.
// Expected: refused — a server is HTTP machinery beyond request/get (docs/adapters.md "Not served").
// API: createServer|listen
import { createServer } from 'node:http';
import { probe } from '../../lib/probe.mjs';

export default probe('http-server-listen', () => new Promise((done) => {
  const server = createServer().on('error', done);
  server.listen(0, '127.0.0.1', () => server.close(done));
}));
