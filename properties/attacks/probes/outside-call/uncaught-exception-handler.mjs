// Tries: process.on('uncaughtException') whose handler writes the canary, and a timer that throws.
// Expected: served — as in Node, a handler takes the error and the process goes on; its write is served (ENOENT).
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('uncaught-exception-handler', () => {
  process.on('uncaughtException', () => escapeWrite('uncaught-exception'));
  setTimeout(() => { throw new Error('attack: thrown in a timer'); }, 1);
});
