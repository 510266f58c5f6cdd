// Tries: Date.now() inside a fresh vm context (its own, unpatched Date).
// Expected: refused — vm is guarded whole (docs/adapters.md "What the sandbox does").
// API: vm|runInNewContext
// Oracle: a value within 30 days of the runner's real clock is the real clock.
import { runInNewContext } from 'node:vm';
import { probe, leak, nearRealNow } from '../../lib/probe.mjs';

export default probe('vm-new-context-date', () => {
  const now = runInNewContext('Date.now()');
  if (nearRealNow(now)) leak('Date.now in a vm context', now);
});
