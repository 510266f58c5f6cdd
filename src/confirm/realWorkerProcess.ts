/**
 * One worker process of a confirmation, as its parent tracks it: started plainly (fork) or under
 * strace (its real system calls logged for the disk model), and killed with SIGKILL — under strace
 * the worker itself first (its own pid, from its hello), then strace.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CODE_ROOT } from '../ownFiles.js';
import type { WorkerStart } from './protocol.js';
import { straceArgs } from './straceCommand.js';

/** The real worker's entry: it loads durasim's module graph, so no TypeScript loader boots in every process. */
const WORKER = join(CODE_ROOT, 'src', 'confirm', 'realWorkerBoot.mjs');

export interface RealWorker {
  name: string;
  pid: number;
  incarnation: number;
  child: ChildProcess;
  /** The worker process's own pid (under strace, `child` is strace). */
  tracee?: number;
  sideFile: string;
  /** Running from its start or a step's completion until it asks again; asking for its next step; waiting on the world (a request, a sleep, a pause, the store). */
  state: 'running' | 'asking' | 'waiting';
  asked?: { op: string; detail: string };
}

/** Starts a worker process in `dir` with `env`: under strace writing `straceLog` when given (io_uring off, so libuv's file calls are system calls strace sees). */
export function startWorkerProcess(start: WorkerStart, dir: string, env: NodeJS.ProcessEnv, straceLog?: string): ChildProcess {
  const stdio: ['ignore', 'ignore', 'pipe', 'ipc'] = ['ignore', 'ignore', 'pipe', 'ipc'];
  if (straceLog !== undefined) return spawn('strace', [...straceArgs(straceLog), process.execPath, WORKER, JSON.stringify(start)], { cwd: dir, env: { ...env, UV_USE_IO_URING: '0' }, stdio });
  return fork(WORKER, [JSON.stringify(start)], { cwd: dir, execArgv: [], env, stdio });
}

/** Kills a worker with SIGKILL: the traced process first, then its strace (or the plain child). */
export function killWorker(w: RealWorker): void {
  if (w.tracee !== undefined) {
    try {
      process.kill(w.tracee, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  w.child.kill('SIGKILL');
}
