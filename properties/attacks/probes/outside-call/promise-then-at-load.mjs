// Tries: a promise chain started at the module's top level that awaits twice, then writes the canary.
// Expected: refused — a disk call while loading (or with no process) is refused (docs/adapters.md "What the sandbox does").
// API: writeFileSync|writeFile
import { writeFile } from 'node:fs/promises';
import { probe, canary } from '../../lib/probe.mjs';

(async () => {
  await null;
  await null;
  await writeFile(canary('then-at-load'), 'x');
})().catch(() => {});
export default probe('promise-then-at-load');
