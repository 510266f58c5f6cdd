/**
 * An open file of durasim's SQLite VFS (simVfs.ts), the constants of sqlite3.h the VFS answers with,
 * and a nameless temporary file's reads and writes: such a file lives in the process's memory
 * (os_unix.c unlinks it at once; it never survives the process), not on the simulated disk.
 */
import type { LockOwner } from './sqliteMachine.js';

/** SQLite's result codes the VFS returns (sqlite3.h). */
export const RC = {
  OK: 0, ERROR: 1, BUSY: 5, NOTFOUND: 12, FULL: 13, CANTOPEN: 14,
  IOERR_READ: 266, IOERR_SHORT_READ: 522, IOERR_WRITE: 778, IOERR_FSYNC: 1034, IOERR_DIR_FSYNC: 1290, IOERR_TRUNCATE: 1546, IOERR_FSTAT: 1802,
  IOERR_DELETE: 2570, IOERR_ACCESS: 3338, IOERR_DELETE_NOENT: 5898, IOERR_SHMMAP: 5386, IOERR_SHMSIZE: 4874,
} as const;

export const OPEN = { READONLY: 0x1, READWRITE: 0x2, CREATE: 0x4, DELETEONCLOSE: 0x8, EXCLUSIVE: 0x10, MAIN_DB: 0x100, MAIN_JOURNAL: 0x800, SUPER_JOURNAL: 0x4000, WAL: 0x80000 } as const;
export const ACCESS_EXISTS = 0;
export const IOCAP_POWERSAFE_OVERWRITE = 0x1000;
export const SECTOR_SIZE = 4096;
/** Julian day number of the Unix epoch (os_unix.c's unixEpoch, in days). */
export const UNIX_EPOCH_JD = 2440587.5;

/** An open file of the VFS: on the simulated disk, or (a nameless temporary file) in memory. */
export interface VfsFile extends LockOwner {
  path: string;
  /** The disk's descriptor, or undefined for a file in memory. */
  fd: number | undefined;
  memory: Uint8Array | undefined;
  memorySize: number;
  /** The first xSync also fsyncs the folder (a journal or WAL file this open created). */
  dirSync: boolean;
  /** This process's copies of the WAL index's regions: its heap address and size, by region. */
  shm: { ptr: number; size: number }[];
}

export const errnoCode = (error: unknown): string | undefined => (error as { code?: unknown }).code as string | undefined;

/** A read of a nameless temporary file, in the process's memory: zeros past its end, and a short read said. */
export function readMemory(file: VfsFile, into: Uint8Array, offset: number): number {
  const memory = file.memory as Uint8Array;
  const available = Math.max(0, Math.min(into.length, file.memorySize - offset));
  into.set(memory.subarray(offset, offset + available));
  if (available < into.length) {
    into.fill(0, available);
    return RC.IOERR_SHORT_READ;
  }
  return RC.OK;
}

/** A write to a nameless temporary file, in the process's memory, which grows to hold it. */
export function writeMemory(file: VfsFile, data: Uint8Array, offset: number): number {
  const end = offset + data.length;
  if (end > (file.memory as Uint8Array).length) {
    const grown = new Uint8Array(Math.max(end, (file.memory as Uint8Array).length * 2));
    grown.set(file.memory as Uint8Array);
    file.memory = grown;
  }
  (file.memory as Uint8Array).set(data, offset);
  file.memorySize = Math.max(file.memorySize, end);
  return RC.OK;
}
