// Tries: 200 writes of 1 MB each to process.stdout, then the journal's work.
// Expected: harmless — console output is kept in the trace, cut at 64,000 characters a run (docs/adapters.md).
import { probe } from '../../lib/probe.mjs';

const chunk = 'x'.repeat(1024 * 1024);
export default probe('stdout-flood', () => {
  for (let i = 0; i < 200; i++) process.stdout.write(chunk);
});
