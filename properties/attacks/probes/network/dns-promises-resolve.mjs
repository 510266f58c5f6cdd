// Tries: dns/promises resolve4 of a public name (a real UDP query to the machine's resolver).
// Expected: refused — DNS is refused by name (README "The sandbox").
// API: dns|resolve4
import { resolve4 } from 'node:dns/promises';
import { probe } from '../../lib/probe.mjs';

export default probe('dns-promises-resolve', () => resolve4('example.com'));
