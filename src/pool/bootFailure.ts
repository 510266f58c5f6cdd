/**
 * Why a pool worker could not boot, as the command says it (exit 5): its entry file missing, its
 * boot threw, it ended before it was ready, or it ran out of heap while booting. No journal code
 * runs in a worker before it is ready (poolWorker.ts: the thread is guarded and closed first), so
 * a boot that fails is durasim's own failure, and it would fail again in every new worker: the pool
 * starts no other and ends every load and run it holds (workerPool.ts), where it once started a new
 * worker for each that died, forever.
 */
import { existsSync } from 'node:fs';
import { OwnFailure, REINSTALL } from '../ownFailure.js';

const ACTION = "start a worker thread of durasim's pool";

/** The worker ended before it was ready: `error` what it threw (or Node's error starting it), else `exitCode` its exit; or it did not say it was ready within `hungMs` (the pool's boot bound). */
export function bootFailure(boot: string, cause: { error?: Error & { code?: string }; exitCode?: number; hungMs?: number }, heapLimitMb: number): OwnFailure {
  const { error, exitCode, hungMs } = cause;
  if (hungMs !== undefined) return new OwnFailure(ACTION, `its boot (${boot}) did not say it was ready within ${hungMs / 1000} s (a worker boots in well under a second): it hangs`, REINSTALL);
  if (!existsSync(boot)) return new OwnFailure(ACTION, `its entry file ${boot} is missing: durasim's package is incomplete`, REINSTALL);
  if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') return new OwnFailure(ACTION, `the worker's heap passed its limit of ${heapLimitMb} MB while it booted (${boot}), before any journal ran`, 'Raise --max-heap');
  // Said by durasim's own boot in its words (src/bin/graph.mjs's ownFailure: its module graph cannot load, say).
  const own = error as (Error & { ownFailure?: boolean; action?: unknown; reason?: unknown; fix?: unknown }) | undefined;
  if (own?.ownFailure === true && typeof own.action === 'string' && typeof own.reason === 'string' && typeof own.fix === 'string') return new OwnFailure(own.action, own.reason, own.fix);
  if (error) {
    const first = `${error.name}: ${error.message}`.split('\n')[0] as string;
    return new OwnFailure(ACTION, `its boot (${boot}) threw ${first.replace(/\.+$/, '')}`, REINSTALL);
  }
  return new OwnFailure(ACTION, `its boot (${boot}) ended${exitCode === undefined ? '' : ` with exit code ${exitCode}`} before the worker was ready`, REINSTALL);
}
