// Tries: allocates 1.5 GiB of Buffers (outside the JavaScript heap, which --max-heap bounds at 512 MB), kept alive.
// Expected: finding — the journal takes three times the memory it is allowed: journal-out-of-memory (exit 3).
// Revised: harmless — the 1.5 GiB is dropped when the attack returns, inside one step: memory is judged by
//   what a journal holds at its steps, after a full collection (README Known limits, since 169c150), so both
//   runs exit 0 alike; the same allocation kept across steps is huge-external-memory-held, a finding.
import { probe } from '../../lib/probe.mjs';

export default probe('huge-external-memory', () => {
  const kept = [];
  for (let i = 0; i < 24; i++) kept.push(Buffer.alloc(64 * 1024 * 1024, i));
  return kept.length;
});
