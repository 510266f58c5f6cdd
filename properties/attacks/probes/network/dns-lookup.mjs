// Tries: dns.lookup('localhost') through the real resolver.
// Expected: refused — DNS is refused by name (README "The sandbox").
// API: dns|lookup
import { lookup } from 'node:dns';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('dns-lookup', () => new Promise((done) => lookup('localhost', (error, address) => done(observe('dns.lookup', `${error?.code ?? address}`)))));
