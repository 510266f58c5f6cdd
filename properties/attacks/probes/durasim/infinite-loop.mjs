// Tries: an infinite synchronous loop in run().
// Expected: finding — a journal holding its thread for --hang-timeout is journal-blocked (exit 3) (README "Isolation").
import { probe } from '../../lib/probe.mjs';

export default probe('infinite-loop', () => {
  for (;;);
});
