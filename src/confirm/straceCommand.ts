/**
 * How a confirmation's worker runs under system-call tracing: `strace` from the distribution's
 * packages (Debian: `apt-get install strace`), following every thread (libuv's pool makes the file
 * calls), printing fds with their paths, strings in hex, whole up to 16 MiB, microsecond times,
 * and only the calls that change files (plus the reads and seeks that move a handle, printed raw so
 * their data stays out of the log). io_uring is off for the worker, so libuv's calls are system calls.
 */
import { spawnSync } from 'node:child_process';

export const TRACED_CALLS = [
  'open', 'openat', 'creat', 'close',
  'write', 'pwrite64', 'writev', 'pwritev', 'pwritev2',
  'read', 'readv', 'pread64', 'preadv', 'lseek',
  'fsync', 'fdatasync', 'ftruncate', 'truncate',
  'rename', 'renameat', 'renameat2', 'link', 'linkat', 'unlink', 'unlinkat',
  'mkdir', 'mkdirat', 'rmdir', 'symlink', 'symlinkat', 'chdir',
  'copy_file_range', 'sendfile',
];

/** strace's arguments before the traced command: the log goes to `logFile`. */
export function straceArgs(logFile: string): string[] {
  return ['-f', '-qq', '-y', '-xx', '-ttt', '-s', String(16 << 20), '--seccomp-bpf', '-e', 'raw=read,readv,pread64,preadv,lseek', '-e', `trace=${TRACED_CALLS.join(',')}`, '-o', logFile];
}

let available: string | undefined | null = null;

/** Why workers cannot run traced here (no strace, or tracing not permitted), or undefined when they can. */
export function straceUnavailable(): string | undefined {
  if (available !== null) return available;
  // `node --version` under strace: the question is only whether tracing is permitted, and it answers before Node boots (0.1 s, not 0.4 s of `node -e 0`, spent blocking the command's thread).
  const run = spawnSync('strace', ['-qq', '-e', 'trace=none', process.execPath, '--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.error) available = `strace is not installed (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`;
  else if (run.status !== 0) available = `strace cannot trace here: ${(run.stderr || `exit ${run.status}`).trim().split('\n')[0]}`;
  else available = undefined;
  return available;
}
