// Tries: process.on('unhandledRejection') whose handler writes the canary, and a rejection nobody handles.
// Expected: served — as in Node, a handler takes the rejection and the process goes on; its write is served (ENOENT).
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('unhandled-rejection-handler', () => {
  process.on('unhandledRejection', () => escapeWrite('unhandled-rejection'));
  Promise.reject(new Error('attack: nobody handles this'));
});
