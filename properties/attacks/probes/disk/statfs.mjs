// Tries: fs.statfsSync of / (the real file system's free blocks).
// Expected: refused — statfs is listed as not served (docs/adapters.md "Not served").
// API: statfs
import { statfsSync } from 'node:fs';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('statfs', () => observe('statfs', statfsSync('/').bfree));
