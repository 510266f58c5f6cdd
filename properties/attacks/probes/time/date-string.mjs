// Tries: Date() called as a function (a string), parsed back.
// Expected: served — the virtual clock (docs/adapters.md Path 1).
// Oracle: a value within 30 days of the runner's real clock is the real clock.
import { probe, leak, nearRealNow, observe } from '../../lib/probe.mjs';

export default probe('date-string', async () => {
  const text = Date();
  if (nearRealNow(Date.parse(text))) leak('Date()', text);
  await observe('Date()', text);
});
