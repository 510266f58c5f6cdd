// Worker-thread entry of the pool. From the compiled package it loads the worker as it is; from
// the TypeScript sources it first registers tsx in this thread, so durasim's own .ts modules load.
import { existsSync } from 'node:fs';

const compiled = new URL('./poolWorker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./poolWorker.ts');
}
