// The entry of a confirmation's real worker process (realRun.ts starts it, one per incarnation):
// it loads durasim's module graph (src/bin/graph.mjs: one file, no TypeScript loader to boot),
// else the compiled worker of the package, else the TypeScript sources through tsx; then runs the
// incarnation its one argument (a WorkerStart, JSON) describes.
import { ownModuleForEntry, useGraphFile } from '../bin/graph.mjs';

// A failpoint for durasim's own tests: a real worker that cannot boot ends confirm (exit 5), never reads as the journal's (realWorkerBootFailure.ts).
if (process.env.DURASIM_FAILPOINT === 'real-worker-boot') throw new Error('the DURASIM_FAILPOINT test failpoint is set (real-worker-boot)');
const start = JSON.parse(process.argv[2] ?? '{}');
// The graph the parent runs (WorkerStart.graphFile), named without digesting the sources again; one gone meanwhile is found as ever.
useGraphFile(start.graphFile);
const worker = await ownModuleForEntry('src/confirm/realWorker', import.meta.url, './realWorker');
await worker.runRealWorker(start);
