/**
 * SQLite's VFS on the simulated machine, doing what the unix VFS (os_unix.c) does on Linux:
 *
 * - Files are the simulated disk's: the database, its `-journal` and `-wal` files are opened,
 *   read, written, truncated, synced and deleted there, so crashes, power loss and its crash states
 *   (lost unsynced data, torn writes, per file) and I/O errors all apply, and SQLite's own recovery
 *   runs at the next open. A temporary file SQLite opens without a name lives in the process's
 *   memory (os_unix.c unlinks it at once; it never survives the process).
 * - Every xOpen, xRead, xWrite, xTruncate, xSync, xFileSize, xDelete and xAccess is a step of its
 *   process (an atomic step: a synchronous call, traced as `sqlite.xWrite` and so on), where the
 *   scenario's crashes and I/O errors land. xSync is fsync(2) of the file; the first xSync of a
 *   journal or WAL file opened with SQLITE_OPEN_CREATE also fsyncs its folder, its failure ignored
 *   (os_unix.c's UNIXFILE_DIRSYNC), and xDelete's dirSync flag fsyncs the folder after the unlink
 *   (its failure is SQLITE_IOERR_DIR_FSYNC).
 * - xAccess(EXISTS) counts an empty file as absent, as os_unix.c does.
 * - Locks (xLock, xUnlock, xCheckReservedLock, xShmLock) and the WAL index's shared memory are the
 *   machine's (sqliteMachine.ts); they are no steps (nothing is written, no crash lands there).
 * - The sector size is 4096 and the device claims powersafe overwrite, as the unix VFS does by
 *   default; xRandomness is derived from the process (the same bytes in every replay), xCurrentTime
 *   is the virtual clock, and xSleep returns at once: no other process can run while a synchronous
 *   call waits, so a busy handler's wait cannot let the lock holder finish (docs/sqlite.md).
 */
import { posix } from 'node:path';
import { atomicStep, ProcessEnded } from '../world/atomicStep.js';
import type { StepHost } from '../world/host.js';
import type { Proc } from '../world/proc.js';
import { rel } from '../world/trace.js';
import { derivedBytes } from '../sandbox/derivedBytes.js';
import type { SqliteModule } from './engine.js';
import { LOCK, sqliteMachineOf, type SqliteMachine } from './sqliteMachine.js';
import { ACCESS_EXISTS, errnoCode, IOCAP_POWERSAFE_OVERWRITE, OPEN, RC, readMemory, SECTOR_SIZE, UNIX_EPOCH_JD, writeMemory, type VfsFile } from './vfsFile.js';

export { RC };

export class SimVfs {
  readonly name = 'durasim';
  readonly mxPathname = 1024;
  private readonly files = new Map<number, VfsFile>();
  private readonly machine: SqliteMachine;
  private draws = 0;

  constructor(private readonly world: StepHost, private readonly proc: Proc, private readonly sqlite: SqliteModule) {
    this.machine = sqliteMachineOf(world);
  }

  hasAsyncMethod(): boolean {
    return false;
  }

  // ---- steps ----

  /** One atomic step of the process; a failure of the disk becomes `failed` (a crash or the run's end goes on up). */
  private step(op: string, detail: string, failed: (error: unknown) => number, run: () => number): number {
    this.pushShm();
    try {
      return atomicStep(this.world, this.proc, `sqlite.${op}`, detail, run);
    } catch (error) {
      if (error instanceof ProcessEnded) throw error;
      return failed(error);
    }
  }

  private alive(): void {
    if (!this.proc.alive || this.proc.done || this.world.stop !== null) throw new ProcessEnded(this.proc, 'is no longer running');
  }

  private name_(ptr: number): string {
    return this.sqlite.UTF8ToString(ptr);
  }

  private fileOf(pFile: number): VfsFile {
    const file = this.files.get(pFile);
    if (file === undefined) throw new Error(`durasim's SQLite VFS: no open file at ${pFile}`);
    return file;
  }

  private syncFolder(path: string): void {
    const disk = this.world.disk;
    const dir = disk.openFile(posix.dirname(path), 'r', this.proc.pid);
    try {
      disk.handleSync(dir.fd);
    } finally {
      disk.handleClose(dir.fd);
    }
  }

  // ---- the VFS's methods (sqlite3_vfs) ----

  xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
    this.alive();
    const owner = (): boolean => this.proc.alive && !this.proc.done;
    if (zName === 0) {
      this.files.set(pFile, { path: '', fd: undefined, memory: new Uint8Array(0), memorySize: 0, dirSync: false, shm: [], alive: owner });
      if (pOutFlags !== 0) this.sqlite.setValue(pOutFlags, flags, 'i32');
      return RC.OK;
    }
    const path = this.world.disk.resolve(this.name_(zName));
    const create = (flags & OPEN.CREATE) !== 0;
    const readOnly = (flags & OPEN.READONLY) !== 0;
    const journal = (flags & (OPEN.MAIN_JOURNAL | OPEN.SUPER_JOURNAL | OPEN.WAL)) !== 0;
    const rc = this.step('xOpen', `${rel(path)}${readOnly ? ' read-only' : create ? ' create' : ''}`, () => RC.CANTOPEN, () => {
      const disk = this.world.disk;
      const exists = disk.exists(path);
      if (!exists && !create) return RC.CANTOPEN;
      const flag = readOnly ? 'r' : (flags & OPEN.EXCLUSIVE) !== 0 ? 'wx+' : exists ? 'r+' : 'w+';
      const opened = disk.openFile(path, flag, this.proc.pid);
      // os_unix.c sets UNIXFILE_DIRSYNC on a journal or WAL opened with SQLITE_OPEN_CREATE, whether or not this open made it.
      this.files.set(pFile, { path, fd: opened.fd, memory: undefined, memorySize: 0, dirSync: create && journal, shm: [], alive: owner });
      return RC.OK;
    });
    if (rc === RC.OK && pOutFlags !== 0) this.sqlite.setValue(pOutFlags, flags, 'i32');
    return rc;
  }

  xDelete(_pVfs: number, zName: number, syncDir: number): number {
    this.alive();
    const path = this.world.disk.resolve(this.name_(zName));
    return this.step('xDelete', `${rel(path)}${syncDir !== 0 ? ' and fsync its folder' : ''}`, (error) => (errnoCode(error) === 'ENOENT' ? RC.IOERR_DELETE_NOENT : RC.IOERR_DELETE), () => {
      this.world.disk.unlink(path);
      if (syncDir !== 0) {
        try {
          this.syncFolder(path);
        } catch {
          return RC.IOERR_DIR_FSYNC;
        }
      }
      return RC.OK;
    });
  }

  xAccess(_pVfs: number, zName: number, flags: number, pResOut: number): number {
    this.alive();
    const path = this.world.disk.resolve(this.name_(zName));
    let found = false;
    const rc = this.step('xAccess', rel(path), () => RC.IOERR_ACCESS, () => {
      const disk = this.world.disk;
      found = disk.exists(path);
      // os_unix.c: an empty regular file does not exist for SQLITE_ACCESS_EXISTS.
      if (found && flags === ACCESS_EXISTS) {
        const stats = disk.statOf(path);
        found = !stats.isFile() || stats.size > 0;
      }
      return RC.OK;
    });
    this.sqlite.setValue(pResOut, found ? 1 : 0, 'i32');
    return rc;
  }

  xFullPathname(_pVfs: number, zName: number, nOut: number, zOut: number): number {
    const full = this.world.disk.resolve(this.name_(zName));
    if (this.sqlite.lengthBytesUTF8(full) + 1 > nOut) return RC.CANTOPEN;
    this.sqlite.stringToUTF8(full, zOut, nOut);
    return RC.OK;
  }

  xRandomness(_pVfs: number, nBuf: number, zBuf: number): number {
    const bytes = derivedBytes(`sqlite:${this.proc.simulated.pid}:${this.draws++}`, nBuf);
    this.sqlite.HEAPU8.set(bytes, zBuf);
    return nBuf;
  }

  xSleep(_pVfs: number, microseconds: number): number {
    return microseconds;
  }

  xCurrentTime(_pVfs: number, pJulianDay: number): number {
    new DataView(this.sqlite.HEAPU8.buffer).setFloat64(pJulianDay, this.world.clock.epochMs / 86_400_000 + UNIX_EPOCH_JD, true);
    return RC.OK;
  }

  xCurrentTimeInt64(_pVfs: number, pTime: number): number {
    const ms = BigInt(Math.round(this.world.clock.epochMs)) + BigInt(UNIX_EPOCH_JD * 86_400_000);
    new DataView(this.sqlite.HEAPU8.buffer).setBigInt64(pTime, ms, true);
    return RC.OK;
  }

  xGetLastError(): number {
    return RC.OK;
  }

  // ---- a file's methods (sqlite3_io_methods) ----

  xClose(pFile: number): number {
    const file = this.files.get(pFile);
    if (file === undefined) return RC.OK;
    this.files.delete(pFile);
    for (const region of file.shm) this.sqlite._sqlite3_free(region.ptr);
    if (file.fd === undefined || !this.proc.alive) return RC.OK;
    try {
      this.machine.unlock(file.path, file, LOCK.NONE);
      this.world.disk.handleClose(file.fd);
    } catch {
      // closing a handle the run's end already closed
    }
    return RC.OK;
  }

  xRead(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    const offset = hi * 0x1_0000_0000 + (lo >>> 0);
    const heap = (): Uint8Array => this.sqlite.HEAPU8;
    if (file.fd === undefined) return readMemory(file, heap().subarray(pData, pData + iAmt), offset);
    const fd = file.fd;
    return this.step('xRead', `${rel(file.path)} ${iAmt} bytes at ${offset}`, () => RC.IOERR_READ, () => {
      const bytes = this.world.disk.handleReadAt(fd, iAmt, offset);
      const into = heap().subarray(pData, pData + iAmt);
      into.set(bytes);
      if (bytes.length < iAmt) {
        into.fill(0, bytes.length);
        return RC.IOERR_SHORT_READ;
      }
      return RC.OK;
    });
  }

  xWrite(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    const offset = hi * 0x1_0000_0000 + (lo >>> 0);
    const data = Buffer.from(this.sqlite.HEAPU8.subarray(pData, pData + iAmt));
    if (file.fd === undefined) return writeMemory(file, data, offset);
    const fd = file.fd;
    return this.step('xWrite', `${rel(file.path)} ${iAmt} bytes at ${offset}`, (error) => (errnoCode(error) === 'ENOSPC' ? RC.FULL : RC.IOERR_WRITE), () => {
      this.world.notePayload(data);
      this.world.disk.handleWrite(fd, data, offset);
      return RC.OK;
    });
  }

  xTruncate(pFile: number, lo: number, hi: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    const size = hi * 0x1_0000_0000 + (lo >>> 0);
    if (file.fd === undefined) {
      file.memorySize = Math.min(file.memorySize, size);
      return RC.OK;
    }
    const fd = file.fd;
    return this.step('xTruncate', `${rel(file.path)} to ${size} bytes`, () => RC.IOERR_TRUNCATE, () => {
      this.world.disk.handleTruncate(fd, size);
      return RC.OK;
    });
  }

  xSync(pFile: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    if (file.fd === undefined) return RC.OK;
    const fd = file.fd;
    const withFolder = file.dirSync;
    return this.step('xSync', `${rel(file.path)}${withFolder ? ' and its folder' : ''}`, () => RC.IOERR_FSYNC, () => {
      this.world.disk.handleSync(fd);
      // os_unix.c: the folder's fsync is tried once, its failure ignored, once the file's own fsync succeeded.
      if (withFolder) {
        file.dirSync = false;
        try {
          this.syncFolder(file.path);
        } catch {
          // as unixSync does
        }
      }
      return RC.OK;
    });
  }

  xFileSize(pFile: number, pSize: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    let size = file.memorySize;
    const rc = file.fd === undefined ? RC.OK : this.step('xFileSize', rel(file.path), () => RC.IOERR_FSTAT, () => {
      size = this.world.disk.statOf(file.fd as number).size;
      return RC.OK;
    });
    new DataView(this.sqlite.HEAPU8.buffer).setBigInt64(pSize, BigInt(size), true);
    return rc;
  }

  xLock(pFile: number, level: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    if (file.fd === undefined) return RC.OK;
    return this.machine.lock(file.path, file, level) ? RC.OK : RC.BUSY;
  }

  xUnlock(pFile: number, level: number): number {
    const file = this.files.get(pFile);
    if (file === undefined || file.fd === undefined || !this.proc.alive) return RC.OK;
    this.machine.unlock(file.path, file, level);
    return RC.OK;
  }

  xCheckReservedLock(pFile: number, pResOut: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    this.sqlite.setValue(pResOut, file.fd !== undefined && this.machine.reservedByOther(file.path, file) ? 1 : 0, 'i32');
    return RC.OK;
  }

  xFileControl(): number {
    return RC.NOTFOUND;
  }

  xSectorSize(): number {
    return SECTOR_SIZE;
  }

  xDeviceCharacteristics(): number {
    return IOCAP_POWERSAFE_OVERWRITE;
  }

  // ---- the WAL index's shared memory ----

  xShmMap(pFile: number, index: number, size: number, extend: number, pp: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    const region = this.machine.region(file.path, file, index, size, extend !== 0);
    if (region === undefined) {
      this.sqlite.setValue(pp, 0, '*');
      return RC.OK;
    }
    let mine = file.shm[index];
    if (mine === undefined) {
      const ptr = this.sqlite._sqlite3_malloc(size);
      if (ptr === 0) return RC.IOERR_SHMMAP;
      mine = { ptr, size };
      file.shm[index] = mine;
    }
    this.sqlite.HEAPU8.set(region.subarray(0, size), mine.ptr);
    this.sqlite.setValue(pp, mine.ptr, '*');
    return RC.OK;
  }

  xShmLock(pFile: number, offset: number, n: number, flags: number): number {
    this.alive();
    const file = this.fileOf(pFile);
    this.pushShm();
    return this.machine.shmLock(file.path, file, offset, n, flags) ? RC.OK : RC.BUSY;
  }

  xShmBarrier(): void {
    this.alive();
    this.pushShm();
  }

  xShmUnmap(pFile: number, deleteFlag: number): number {
    const file = this.files.get(pFile);
    if (file === undefined) return RC.OK;
    if (this.proc.alive) {
      this.pushShm();
      this.machine.unmap(file.path, file, deleteFlag !== 0);
    }
    for (const region of file.shm) if (region !== undefined) this.sqlite._sqlite3_free(region.ptr);
    file.shm = [];
    return RC.OK;
  }

  /** This process's copies of the shared memory written back to the machine's (it is the only one running). */
  pushShm(): void {
    if (!this.proc.alive) return;
    for (const file of this.files.values()) {
      file.shm.forEach((mine, index) => {
        const region = this.machine.region(file.path, file, index, mine.size, false);
        region?.set(this.sqlite.HEAPU8.subarray(mine.ptr, mine.ptr + mine.size));
      });
    }
  }

  /** The machine's shared memory read into this process's copies, as the process runs again (another may have written it meanwhile). */
  pullShm(): void {
    if (!this.proc.alive) return;
    for (const file of this.files.values()) {
      file.shm.forEach((mine, index) => {
        const region = this.machine.region(file.path, file, index, mine.size, false);
        if (region !== undefined) this.sqlite.HEAPU8.set(region.subarray(0, mine.size), mine.ptr);
      });
    }
  }
}
