// Tries: every console method and process.stdout/stderr.write replaced by no-ops, on the journal that never
//   fsyncs, so that whatever durasim prints from this thread vanishes.
// Expected: finding — the verdict and exit code must not depend on it (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('console-silenced', () => {
  for (const name of Object.keys(console)) if (typeof console[name] === 'function') console[name] = () => {};
  process.stdout.write = () => true;
  process.stderr.write = () => true;
}, { base: unsynced });
