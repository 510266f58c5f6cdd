/**
 * SQLite over a disk image, for a journal's inspect(): `new Database(file, { readonly: true })`
 * inside inspect() opens the database of the image being inspected (the durable image after a
 * crash, or what processes see), as the next real open would. Its files are read from the image's
 * bytes and written to a copy in memory, so SQLite's own recovery — a hot rollback journal played
 * back, a WAL's frames checked and its index rebuilt — runs as it would at the next open, and
 * decides what the journal reads; the image itself never changes. No step, no lock: no process
 * runs while inspect() reads. One SQLite serves every inspection of a thread (reading leaves no
 * state a later read could see: each connection is closed before the next).
 */
import { newSqlite, type SqliteModule } from './engine.js';
import { RC } from './simVfs.js';
import { SqliteConnection, type VfsSqlite } from './connection.js';
import type { SqliteHost } from './database.js';

import type { ImageBytes } from '../world/inspection.js';

const OPEN_CREATE = 0x4;
const OPEN_READONLY = 0x1;
const OPEN_READWRITE = 0x2;

interface ImageFile {
  path: string;
  data: Uint8Array;
  size: number;
}

class ImageVfs {
  readonly name = 'durasim-image';
  readonly mxPathname = 1024;
  image: ImageBytes | undefined;
  /** The files as this inspection changed them (recovery's writes), by path; null: deleted. */
  private overlay = new Map<string, ImageFile | null>();
  private readonly open = new Map<number, ImageFile>();
  private shm: { ptr: number; size: number }[] = [];

  constructor(private readonly sqlite: SqliteModule) {}

  hasAsyncMethod(): boolean {
    return false;
  }

  /** A new inspection: its image, nothing changed yet. */
  reset(image: ImageBytes): void {
    this.image = image;
    this.overlay = new Map();
  }

  private file(path: string): ImageFile | undefined {
    const changed = this.overlay.get(path);
    if (changed !== undefined) return changed ?? undefined;
    const bytes = this.image?.readBytes(path);
    if (bytes === undefined) return undefined;
    const file = { path, data: Uint8Array.from(bytes), size: bytes.length };
    this.overlay.set(path, file);
    return file;
  }

  private path(ptr: number): string {
    return (this.image as ImageBytes).resolve(this.sqlite.UTF8ToString(ptr));
  }

  xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
    const path = zName === 0 ? `:temp:${pFile}` : this.path(zName);
    let file = zName === 0 ? undefined : this.file(path);
    if (file === undefined) {
      if ((flags & OPEN_CREATE) === 0 && zName !== 0) return RC.CANTOPEN;
      file = { path, data: new Uint8Array(0), size: 0 };
      this.overlay.set(path, file);
    }
    this.open.set(pFile, file);
    // Opened for writing whatever was asked: recovery writes to the copy in memory.
    if (pOutFlags !== 0) this.sqlite.setValue(pOutFlags, (flags & ~OPEN_READONLY) | OPEN_READWRITE, 'i32');
    return RC.OK;
  }

  xDelete(_pVfs: number, zName: number): number {
    this.overlay.set(this.path(zName), null);
    return RC.OK;
  }

  xAccess(_pVfs: number, zName: number, _flags: number, pResOut: number): number {
    const file = this.file(this.path(zName));
    this.sqlite.setValue(pResOut, file !== undefined && file.size > 0 ? 1 : 0, 'i32');
    return RC.OK;
  }

  xFullPathname(_pVfs: number, zName: number, nOut: number, zOut: number): number {
    this.sqlite.stringToUTF8(this.path(zName), zOut, nOut);
    return RC.OK;
  }

  xRandomness(_pVfs: number, nBuf: number, zBuf: number): number {
    this.sqlite.HEAPU8.fill(0, zBuf, zBuf + nBuf);
    return nBuf;
  }

  xSleep(_pVfs: number, microseconds: number): number {
    return microseconds;
  }

  xCurrentTime(_pVfs: number, pJulianDay: number): number {
    new DataView(this.sqlite.HEAPU8.buffer).setFloat64(pJulianDay, 2440587.5, true);
    return RC.OK;
  }

  xGetLastError(): number {
    return RC.OK;
  }

  xClose(pFile: number): number {
    this.open.delete(pFile);
    return RC.OK;
  }

  private fileOf(pFile: number): ImageFile {
    return this.open.get(pFile) as ImageFile;
  }

  xRead(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    const file = this.fileOf(pFile);
    const offset = hi * 0x1_0000_0000 + (lo >>> 0);
    const into = this.sqlite.HEAPU8.subarray(pData, pData + iAmt);
    const available = Math.max(0, Math.min(iAmt, file.size - offset));
    into.set(file.data.subarray(offset, offset + available));
    if (available < iAmt) {
      into.fill(0, available);
      return RC.IOERR_SHORT_READ;
    }
    return RC.OK;
  }

  xWrite(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    const file = this.fileOf(pFile);
    const offset = hi * 0x1_0000_0000 + (lo >>> 0);
    const end = offset + iAmt;
    if (end > file.data.length) {
      const grown = new Uint8Array(Math.max(end, file.data.length * 2));
      grown.set(file.data.subarray(0, file.size));
      file.data = grown;
    }
    file.data.set(this.sqlite.HEAPU8.subarray(pData, pData + iAmt), offset);
    file.size = Math.max(file.size, end);
    return RC.OK;
  }

  xTruncate(pFile: number, lo: number, hi: number): number {
    const file = this.fileOf(pFile);
    file.size = Math.min(file.size, hi * 0x1_0000_0000 + (lo >>> 0));
    return RC.OK;
  }

  xSync(): number {
    return RC.OK;
  }

  xFileSize(pFile: number, pSize: number): number {
    new DataView(this.sqlite.HEAPU8.buffer).setBigInt64(pSize, BigInt(this.fileOf(pFile).size), true);
    return RC.OK;
  }

  xLock(): number {
    return RC.OK;
  }

  xUnlock(): number {
    return RC.OK;
  }

  xCheckReservedLock(_pFile: number, pResOut: number): number {
    this.sqlite.setValue(pResOut, 0, 'i32');
    return RC.OK;
  }

  xFileControl(): number {
    return RC.NOTFOUND;
  }

  xSectorSize(): number {
    return 4096;
  }

  xDeviceCharacteristics(): number {
    return 0x1000;
  }

  // The WAL index of an inspection is its own, fresh (zeroed): SQLite rebuilds it from the WAL, as after a crash.
  xShmMap(_pFile: number, index: number, size: number, extend: number, pp: number): number {
    let region = this.shm[index];
    if (region === undefined) {
      if (extend === 0) {
        this.sqlite.setValue(pp, 0, '*');
        return RC.OK;
      }
      const ptr = this.sqlite._sqlite3_malloc(size);
      this.sqlite.HEAPU8.fill(0, ptr, ptr + size);
      region = { ptr, size };
      this.shm[index] = region;
    }
    this.sqlite.setValue(pp, region.ptr, '*');
    return RC.OK;
  }

  xShmLock(): number {
    return RC.OK;
  }

  xShmBarrier(): void {}

  xShmUnmap(): number {
    for (const region of this.shm) if (region !== undefined) this.sqlite._sqlite3_free(region.ptr);
    this.shm = [];
    return RC.OK;
  }

  pullShm(): void {}
  pushShm(): void {}
}

let shared: { sqlite: SqliteModule; vfs: ImageVfs } | undefined;

/** The thread's SQLite for images, its VFS reading `image` from now on. */
export function imageSqlite(image: ImageBytes): VfsSqlite {
  if (shared === undefined) {
    const sqlite = newSqlite();
    const vfs = new ImageVfs(sqlite);
    const rc = sqlite.vfs_register(vfs, true);
    if (rc !== 0) throw new Error(`durasim could not register its SQLite image VFS (${rc})`);
    shared = { sqlite, vfs };
  }
  shared.vfs.reset(image);
  return shared;
}

/** What `new Database(...)` inside inspect() is served: a database on the image being read (NOT_SERVED for any other API). */
export function imageHost(image: ImageBytes): SqliteHost {
  return {
    connect: () => new SqliteConnection(imageSqlite(image)),
    resolve: (path) => image.resolve(path),
    folderExists: () => true,
  };
}
