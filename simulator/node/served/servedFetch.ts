/**
 * The global fetch, served as env.fetch is (simEnv.ts): a step whose request reaches the fake
 * service when the scheduler runs it, whose response arrives after the service's latency (or
 * never, when the scenario drops it), and which an AbortSignal rejects. Any host but the
 * service's is unreachable, as it is for env.fetch.
 */
import { simulatedFetch } from '../simEnv.js';
import type { Served } from './serveContext.js';

export const FETCH_SERVED: [string, Served][] = [['fetch', (ctx, args) => simulatedFetch(ctx.world, ctx.proc)(args[0] as string | URL | Request, args[1] as RequestInit | undefined)]];
