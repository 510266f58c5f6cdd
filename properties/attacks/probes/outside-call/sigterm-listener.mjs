// Tries: process.on('SIGTERM') whose listener writes the canary.
// Expected: harmless — a simulated process gets no signals (docs/adapters.md "What the sandbox does").
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('sigterm-listener', () => {
  process.on('SIGTERM', () => escapeWrite('sigterm'));
});
