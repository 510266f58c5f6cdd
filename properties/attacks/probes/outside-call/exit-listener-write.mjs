// Tries: process.on('exit') whose listener writes the canary synchronously.
// Expected: served — exit listeners belong to the incarnation and run at its end; the write is served (ENOENT) (docs/adapters.md).
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('exit-listener-write', () => {
  process.on('exit', () => escapeWrite('exit-listener'));
});
