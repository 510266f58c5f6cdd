// Tries: async_hooks.createHook whose init writes the canary: it runs for every async resource in the thread,
//   durasim's own included.
// Expected: harmless — journal code run inside durasim's work must not reach the real disk.
import { createHook } from 'node:async_hooks';
import { probe, escapeWrite } from '../../lib/probe.mjs';

let calls = 0;
export default probe('async-hook-init', () => {
  createHook({ init() { if (calls++ < 50) escapeWrite('async-hook'); } }).enable();
});
