/**
 * How a pool worker starts: with the process's Node options, as Node's default gives a worker, less
 * tsx's registration (`--import tsx`, `--loader tsx`, `--require tsx/cjs` and their `=` forms). A
 * preload runs again in every worker thread, and a pool worker needs no TypeScript loader: it runs
 * durasim's module graph, one JavaScript file, and registers tsx itself where it must load a
 * TypeScript source (src/bin/graph.mjs, journalInstances.ts). Under tsx (`npm run bench`, the trace
 * corpus, the compatibility matrix) the registration tripled a worker's boot on Node 22 and 24
 * (about 1,000 ms of its thread's CPU against about 300 ms), so a bench run under it measured a boot
 * no user pays. Options a worker cannot be handed (V8's, the process's: Node names them) are the
 * process's already, as they are when a worker inherits them, so they are left out of the list.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TAKES_MODULE = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);

const isTsx = (specifier: string): boolean => /^tsx(\/|$)/.test(specifier);

/** `execArgv` less tsx's registration. */
export function withoutTsx(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const next = execArgv[i + 1];
    if (TAKES_MODULE.has(arg) && next !== undefined && isTsx(next)) {
      i++;
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0 && TAKES_MODULE.has(arg.slice(0, eq)) && isTsx(arg.slice(eq + 1))) continue;
    kept.push(arg);
  }
  return kept;
}

/** The options Node refused to hand a worker, as its ERR_WORKER_INVALID_EXEC_ARGV names them. */
export function refusedOptions(error: unknown): string[] | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || typeof message !== 'string') return undefined;
  const at = message.indexOf(': ');
  return at === -1 ? undefined : message.slice(at + 2).split(', ');
}

/** A worker of `file` with `options`, started with the process's Node options less tsx's (inherited as they are when there is none). */
export function startWorker(file: string | URL, options: WorkerOptions, execArgv: readonly string[] = process.execArgv): Worker {
  const kept = withoutTsx(execArgv);
  if (kept.length === execArgv.length) return new Worker(file, options);
  try {
    return new Worker(file, { ...options, execArgv: kept });
  } catch (error) {
    const refused = refusedOptions(error);
    if (refused === undefined) throw error;
    return new Worker(file, { ...options, execArgv: kept.filter((arg) => !refused.includes(arg)) });
  }
}
