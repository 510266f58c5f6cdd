/**
 * The kind of a journal step, from its trace line (what explore's coverage table and the fault
 * windows group steps by), and the I/O errors worth trying at a step of each kind.
 */
import type { IoErrorFault } from '../../simulator/scenario/scenario.js';

export const STEP_KINDS = ['open', 'append', 'write', 'read', 'fsync', 'directory fsync', 'close', 'rename/link', 'unlink', 'mkdir', 'POST', 'GET', 'store write', 'store read', 'lease', 'clock', 'random', 'other'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

const KINDS: Record<string, StepKind> = {
  'fs.open': 'open',
  'fs.appendFile': 'append', 'fh.appendFile': 'append',
  'fs.writeFile': 'write', 'fh.writeFile': 'write', 'fs.write': 'write', 'fh.write': 'write', 'fs.truncate': 'write', 'fs.ftruncate': 'write', 'fh.truncate': 'write', 'fs.copyFile': 'write',
  'fs.readFile': 'read', 'fh.readFile': 'read', 'fs.read': 'read', 'fh.read': 'read', 'fs.readdir': 'read', 'fs.stat': 'read', 'fs.lstat': 'read', 'fs.fstat': 'read', 'fh.stat': 'read', 'fs.exists': 'read', 'fs.access': 'read', 'fs.realpath': 'read',
  'fh.close': 'close', 'fs.close': 'close',
  'fs.rename': 'rename/link', 'fs.link': 'rename/link',
  'fs.unlink': 'unlink', 'fs.rm': 'unlink', 'fs.rmdir': 'unlink',
  'fs.mkdir': 'mkdir',
  'clock.now': 'clock', 'clock.sleep': 'clock', 'clock.timeout': 'clock', 'Date.now': 'clock', 'new Date()': 'clock', 'Date()': 'clock', 'performance.now': 'clock',
  random: 'random', 'Math.random': 'random', // allow-ambient: names a step kind
};
/**
 * SQLite's VFS calls (simulator/sqlite/simVfs.ts) count as the Linux calls os_unix.c makes for them: open(2), pread(2),
 * pwrite(2), ftruncate(2) (a write, as fs.ftruncate), fsync(2) of the file (its folder's, when os_unix.c adds one, is in
 * the same step), unlink(2), stat(2) and fstat(2). Its locks and the WAL index's shared memory are no steps.
 */
const SQLITE_KINDS: Record<string, StepKind> = {
  'sqlite.xOpen': 'open', 'sqlite.xRead': 'read', 'sqlite.xWrite': 'write', 'sqlite.xTruncate': 'write', 'sqlite.xSync': 'fsync',
  'sqlite.xDelete': 'unlink', 'sqlite.xAccess': 'read', 'sqlite.xFileSize': 'read',
};
const SYNCS = new Set(['fh.sync', 'fh.datasync', 'fs.fsync', 'fs.fdatasync']);

/**
 * The kind of a journal step, from its trace line (a directory handle's path ends in "/"). Node's
 * own calls count as their env twins: fs.promises.rename and fs.renameSync are fs.rename.
 */
export function stepKind(op: string, detail: string): StepKind {
  const sqlite = SQLITE_KINDS[op];
  if (sqlite !== undefined) return sqlite;
  const base = op.replace(/^fs\.promises\./, 'fs.').replace(/Sync$/, '');
  if (SYNCS.has(base)) return detail.endsWith('/') ? 'directory fsync' : 'fsync';
  if (base === 'fetch') return detail.startsWith('POST') ? 'POST' : detail.startsWith('GET') ? 'GET' : 'other';
  if (base.startsWith('store.')) return base === 'store.put' || base === 'store.delete' ? 'store write' : ['store.acquire', 'store.renew', 'store.release'].includes(base) ? 'lease' : 'store read';
  if (base.startsWith('crypto.')) return 'random';
  if (/^(timers\.(promises\.)?)?set(Timeout|Interval|Immediate)$|^AbortSignal\.timeout$|^Intl\./.test(base)) return 'clock';
  return KINDS[base] ?? 'other';
}

const DISK_KINDS: readonly StepKind[] = ['open', 'append', 'write', 'read', 'fsync', 'directory fsync', 'close', 'rename/link', 'unlink', 'mkdir'];

/** The I/O errors worth trying at a step (none but at disk calls): EIO, and at a write ENOSPC after a short write too. */
export function ioShapes(kind: StepKind): Pick<IoErrorFault, 'error' | 'writtenBytes'>[] {
  if (!DISK_KINDS.includes(kind)) return [];
  return kind === 'append' || kind === 'write' ? [{ error: 'EIO' }, { error: 'ENOSPC', writtenBytes: 1 }] : [{ error: 'EIO' }];
}
