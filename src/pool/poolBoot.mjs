// Worker-thread entry of the pool. It loads durasim's module graph (src/bin/graph.mjs: one file, no
// TypeScript loader), else the compiled worker of the package, else the TypeScript sources through
// tsx; then makes the thread a pool worker.
import { existsSync } from 'node:fs';
import { loadGraph, tuneCompiler } from '../bin/graph.mjs';

tuneCompiler();
const graph = await loadGraph();
const compiled = new URL('./poolWorker.js', import.meta.url);
let worker;
if (graph !== undefined) {
  worker = graph.MODULES['src/pool/poolWorker'];
} else if (existsSync(compiled)) {
  worker = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import('./poolWorker.ts');
}
worker.startPoolWorker();
