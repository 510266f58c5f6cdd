// Tries: allocates 768 MiB of Buffers (outside the JavaScript heap, which --max-heap bounds at 512 MB), kept alive
//   until the attack returns. (It was 1.5 GiB until the fresh-clone CI of 79b7cd6: first touching 1.5 GiB costs
//   4.3 s of a thread's CPU on CI's virtual machine when idle, near the 5 s hang budget, and under load that run
//   passed it: journal-blocked, a true reading of a probe that measured the hang budget, not the memory rule.)
// Expected: finding — the journal takes three times the memory it is allowed: journal-out-of-memory (exit 3).
// Revised: harmless — the memory is dropped when the attack returns, inside one step: memory is judged by
//   what a journal holds at its steps, after a full collection (README Known limits, since 169c150), so both
//   runs exit 0 alike; the same allocation kept across steps is huge-external-memory-held, a finding.
import { probe } from '../../lib/probe.mjs';

export default probe('huge-external-memory', () => {
  const kept = [];
  for (let i = 0; i < 12; i++) kept.push(Buffer.alloc(64 * 1024 * 1024, i));
  return kept.length;
});
