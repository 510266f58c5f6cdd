// Worker-thread entry of the pool. It loads durasim's module graph (src/bin/graph.mjs: one file, no
// TypeScript loader), else the compiled worker of the package, else the TypeScript sources through
// tsx; then makes the thread a pool worker.
import { ownModuleForEntry, tuneCompiler } from '../bin/graph.mjs';

tuneCompiler();
const worker = await ownModuleForEntry('src/pool/poolWorker', import.meta.url, './poolWorker');
worker.startPoolWorker();
