// Tries: a variable written into process.env by one incarnation, looked for by the next.
// Expected: served — process.env writes stay in the incarnation (docs/adapters.md).
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-env-write', () => {
  if (process.env.ATTACK_MARKER !== undefined) leak('process.env.ATTACK_MARKER survived', process.env.ATTACK_MARKER);
  process.env.ATTACK_MARKER = `pid ${process.pid}`;
});
