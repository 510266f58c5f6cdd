// Worker-thread entry of the pool: registers tsx in this thread (durasim's sources and a user's
// TypeScript load as they are), then starts the worker.
import { register } from 'tsx/esm/api';

register();
await import('./poolWorker.ts');
