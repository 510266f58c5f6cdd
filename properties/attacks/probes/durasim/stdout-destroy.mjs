// Tries: process.stdout.destroy() and process.stderr.destroy() (durasim's own output streams if they were real).
// Expected: harmless — each process has output of its own, kept in the trace (docs/adapters.md).
import { probe } from '../../lib/probe.mjs';

export default probe('stdout-destroy', () => {
  process.stdout.destroy();
  process.stderr.destroy();
});
