// Tries: a marker property on the env object run() is handed, looked for by the next incarnation.
// Expected: harmless — every incarnation is handed its own env.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('env-object-marker', (env) => {
  if (env.attackMarker !== undefined) leak('env.attackMarker survived', env.attackMarker);
  env.attackMarker = `pid ${process.pid}`;
});
