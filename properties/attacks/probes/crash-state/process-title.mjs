// Tries: process.title set by one incarnation, looked for by the next.
// Expected: harmless — a new process has its own title.
// Oracle: the title found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-title', () => {
  if (String(process.title).startsWith('attack-title')) leak('process.title survived', process.title);
  process.title = `attack-title-${process.pid}`;
});
