// Worker-thread entry of the pool. It loads durasim's module graph (src/bin/graph.mjs: one file, no
// TypeScript loader; the very file its main thread loaded, when handed it), else the compiled worker
// of the package, else the TypeScript sources through tsx; then makes the thread a pool worker.
import { workerData } from 'node:worker_threads';
import { ownModuleForEntry, tuneCompiler, useGraphFile } from '../bin/graph.mjs';

// A failpoint for durasim's own tests: a worker that cannot boot ends the command (exit 5), never hangs it (bootFailure.ts).
if (process.env.DURASIM_FAILPOINT === 'pool-boot') throw new Error('the DURASIM_FAILPOINT test failpoint is set (pool-boot)');
tuneCompiler();
useGraphFile(workerData?.graphFile); // the graph the main thread runs (src/pool/loadedGraph.ts)
const worker = await ownModuleForEntry('src/pool/poolWorker', import.meta.url, './poolWorker');
worker.startPoolWorker();
