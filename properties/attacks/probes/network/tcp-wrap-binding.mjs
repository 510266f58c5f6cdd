// Tries: process.binding('tcp_wrap'), Node's raw TCP handle under net, connecting to the real canary.
// Expected: refused — a way around the guarded net module must be refused by name (README "The sandbox").
// API: binding
import { probe, env } from '../../lib/probe.mjs';

export default probe('tcp-wrap-binding', () => new Promise((done) => {
  const { TCP, TCPConnectWrap, constants } = process.binding('tcp_wrap');
  const handle = new TCP(constants.SOCKET);
  const req = new TCPConnectWrap();
  req.oncomplete = () => done(handle.close());
  handle.connect(req, '127.0.0.1', Number(env('ATTACK_PORT')));
}));
