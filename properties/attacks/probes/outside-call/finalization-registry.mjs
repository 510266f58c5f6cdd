// Tries: a FinalizationRegistry whose cleanup writes the canary, with garbage made to provoke collection:
//   the cleanup runs whenever V8 collects, inside whatever code is running then.
// Expected: harmless — if the cleanup runs, its write must not be real.
// Limit: README "Known limits": behaviour that depends on garbage collection is not guarded.
import { probe, escapeWrite } from '../../lib/probe.mjs';

const registry = new FinalizationRegistry(() => escapeWrite('finalizer'));
export default probe('finalization-registry', () => {
  for (let i = 0; i < 200; i++) registry.register({ garbage: new Array(10_000).fill(i) }, i);
  let churn = [];
  for (let i = 0; i < 200; i++) churn = [new Array(50_000).fill(i)];
  return churn.length;
});
