// The entry of a confirmation's real worker process (realRun.ts starts it, one per incarnation):
// it loads durasim's module graph (src/bin/graph.mjs: one file, no TypeScript loader to boot),
// else the compiled worker of the package, else the TypeScript sources through tsx; then runs the
// incarnation its one argument (a WorkerStart, JSON) describes.
import { ownModuleForEntry } from '../bin/graph.mjs';

const worker = await ownModuleForEntry('src/confirm/realWorker', import.meta.url, './realWorker');
await worker.runRealWorker(JSON.parse(process.argv[2] ?? '{}'));
