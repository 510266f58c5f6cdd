// The entry of a confirmation's real worker process (realRun.ts starts it, one per incarnation):
// it loads durasim's module graph (src/bin/graph.mjs: one file, no TypeScript loader to boot),
// else the compiled worker of the package, else the TypeScript sources through tsx; then runs the
// incarnation its one argument (a WorkerStart, JSON) describes.
import { existsSync } from 'node:fs';
import { loadGraph } from '../bin/graph.mjs';

const graph = await loadGraph();
const compiled = new URL('./realWorker.js', import.meta.url);
let worker;
if (graph !== undefined) {
  worker = graph.MODULES['src/confirm/realWorker'];
} else if (existsSync(compiled)) {
  worker = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import('./realWorker.ts');
}
await worker.runRealWorker(JSON.parse(process.argv[2] ?? '{}'));
