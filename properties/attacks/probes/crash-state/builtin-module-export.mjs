// Tries: a marker property on the node:fs module object, looked for by the next incarnation.
// Expected: harmless — a new process loads fresh builtin modules.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import fs from 'node:fs';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('builtin-module-export', () => {
  if (fs.attackMarker !== undefined) leak('fs.attackMarker survived', fs.attackMarker);
  fs.attackMarker = `pid ${process.pid}`;
});
