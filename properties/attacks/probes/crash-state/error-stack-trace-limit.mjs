// Tries: Error.stackTraceLimit set to an odd value (41) by one incarnation, looked for by the next.
// Expected: harmless — a new process starts with V8's default.
// Oracle: 41 at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('error-stack-trace-limit', () => {
  if (Error.stackTraceLimit === 41) leak('Error.stackTraceLimit survived', 41);
  Error.stackTraceLimit = 41;
});
