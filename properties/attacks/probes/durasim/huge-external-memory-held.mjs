// Tries: allocates 1.5 GiB of Buffers (outside the JavaScript heap, which --max-heap bounds at 512 MB) once,
//   into an array its module keeps for as long as the process lives, then does its work.
// Expected: finding — the journal holds three times the memory it is allowed across its steps:
//   journal-out-of-memory (exit 3), at the same run and step in both runs.
import { probe } from '../../lib/probe.mjs';

const kept = [];

export default probe('huge-external-memory-held', () => {
  if (kept.length === 0) for (let i = 0; i < 24; i++) kept.push(Buffer.alloc(64 * 1024 * 1024, i));
  return kept.length;
});
