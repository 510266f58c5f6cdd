// Tries: allocates on the JavaScript heap until it runs out (arrays of distinct strings, kept alive).
// Expected: finding — passing --max-heap is journal-out-of-memory, a liveness finding (exit 3) (README "Isolation").
import { probe } from '../../lib/probe.mjs';

export default probe('huge-heap', () => {
  const kept = [];
  for (let i = 0; ; i++) kept.push(new Array(100_000).fill(`${i}`));
});
