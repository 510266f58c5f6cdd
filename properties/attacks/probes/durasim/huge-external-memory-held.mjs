// Tries: allocates 768 MiB of Buffers (outside the JavaScript heap, which --max-heap bounds at 512 MB) once,
//   into an array its module keeps for as long as the process lives, then does its work. (1.5 GiB until
//   79b7cd6's CI; see huge-external-memory: first touching that much costs about the hang budget there.)
// Expected: finding — the journal holds half again the memory it is allowed across its steps:
//   journal-out-of-memory (exit 3), at the same run and step in both runs.
import { probe } from '../../lib/probe.mjs';

const kept = [];

export default probe('huge-external-memory-held', () => {
  if (kept.length === 0) for (let i = 0; i < 12; i++) kept.push(Buffer.alloc(64 * 1024 * 1024, i));
  return kept.length;
});
