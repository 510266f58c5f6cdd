// Worker-thread entry: registers tsx in this thread, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./throughputWorker.ts');
