/**
 * DiskMeta: the disk's calls that look at or change an inode's metadata, below the calls that move
 * bytes (disk.ts): stat(2) in its forms, chmod(2)/chown(2)/utimes(2) (volatile until the file's
 * fsync, see changeMeta), realpath and readlink (the disk has no symbolic links), and what every
 * path call does first (its armed I/O error, then what Linux refuses: linuxChecks.ts).
 */
import { DiskState, type OpenFile } from './diskState.js';
import { ioError, isFsErrorCode } from './ioError.js';
import { IoFaultSlot } from './ioFaultSlot.js';
import { linuxPathCheck } from './linuxChecks.js';
import { existsAt, isDirectoryAt, nodeAt, nodeOfFd, type CoreNode } from './memfsLookup.js';

/** A change of an inode's metadata: chmod(2), chown(2) or utimes(2) (times in seconds, as node:fs passes them on). */
export type MetaChange = { kind: 'mode'; mode: number } | { kind: 'owner'; uid: number; gid: number } | { kind: 'times'; atime: number | Date; mtime: number | Date };

/** stat(2) as node:fs reports it (memfs's Stats has this shape). */
export interface FileStats {
  dev: number; ino: number; mode: number; nlink: number; uid: number; gid: number; rdev: number; size: number; blksize: number; blocks: number;
  atimeMs: number; mtimeMs: number; ctimeMs: number; birthtimeMs: number; atime: Date; mtime: Date; ctime: Date; birthtime: Date;
  isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean;
}

export class DiskMeta extends DiskState {
  /** The I/O error armed for the current worker step, if any (the world arms and disarms it). */
  readonly faults = new IoFaultSlot();
  /** The open handle `fd`, or EBADF. */
  handle(fd: number): OpenFile {
    const file = this.open.get(fd);
    if (file) return file;
    throw Object.assign(new Error('EBADF: bad file descriptor'), { code: 'EBADF' });
  }

  /** A path call: its armed I/O error, then what Linux refuses on the way to its paths. */
  protected enter(syscall: string, ...paths: string[]): void {
    this.faults.failIfArmed(syscall, paths[0] as string);
    linuxPathCheck(this.vol, syscall, ...paths);
  }

  /**
   * chmod(2), chown(2), utimes(2), their f- forms (an open handle) and l- forms (the link itself):
   * metadata on the inode. A file's mode and owner are volatile until an fsync of the file, then
   * durable (a machine crash restores them; one never fsynced comes back with the defaults). Times,
   * and a folder's mode and owner, are not kept by a machine crash: a restored file is stamped with
   * the crash's instant.
   */
  changeMeta(syscall: string, target: string | number, change: MetaChange, follow = true): void {
    let ino: number;
    let node: CoreNode | undefined;
    let mtime: Date | undefined;
    if (typeof target === 'number') {
      const file = this.handle(target);
      this.faults.failIfArmed(syscall, file.path);
      node = nodeOfFd(this.vol, target);
      mtime = node.mtime;
      if (change.kind === 'mode') this.vol.fchmodSync(target, change.mode);
      else if (change.kind === 'owner') this.vol.fchownSync(target, change.uid, change.gid);
      else this.vol.futimesSync(target, change.atime, change.mtime);
      ino = file.ino;
    } else {
      const abs = this.resolve(target);
      this.enter(syscall, abs);
      node = nodeAt(this.vol, abs);
      mtime = node?.mtime;
      if (change.kind === 'mode') this.vol.chmodSync(abs, change.mode);
      else if (change.kind === 'owner') (follow ? this.vol.chownSync : this.vol.lchownSync)(abs, change.uid, change.gid);
      else (follow ? this.vol.utimesSync : this.vol.lutimesSync)(abs, change.atime, change.mtime);
      ino = this.id(Number((nodeAt(this.vol, abs) as { ino: number }).ino));
    }
    // chmod and chown change the inode's ctime only; memfs stamps its mtime too: put back.
    if (change.kind !== 'times' && node !== undefined && mtime !== undefined) node.mtime = mtime;
    if (change.kind !== 'times') this.metaDirty.add(ino);
  }

  /** The full stat(2) of a path or an open handle (memfs's Stats; times are virtual, see the world). */
  statOf(target: string | number, follow = true): FileStats {
    let stats: FileStats;
    if (typeof target === 'number') {
      this.faults.failIfArmed('fstat', this.handle(target).path);
      stats = this.vol.fstatSync(target) as unknown as FileStats;
    } else {
      this.enter(follow ? 'stat' : 'lstat', this.resolve(target));
      // A trailing slash asks for a folder (path_resolution(7)): a file there is ENOTDIR.
      if (target.length > 1 && target.endsWith('/') && this.kindAt(target) === 'file') throw ioError('ENOTDIR', follow ? 'stat' : 'lstat', target);
      stats = (follow ? this.vol.statSync(this.resolve(target)) : this.vol.lstatSync(this.resolve(target))) as unknown as FileStats;
    }
    // As ext4 reports them: a folder takes one 4 KiB block; blocks are 512-byte units of whole 4 KiB blocks.
    if (stats.isDirectory()) stats.size = 4096;
    stats.blocks = Math.ceil(stats.size / 4096) * 8;
    return stats;
  }

  /**
   * realpath: the disk has no symbolic links, so an existing path's real path is its resolved form.
   * Its errors name the call as Node does: realpath(3) (`native`, and fs.promises.realpath) the whole
   * path as given; Node's JavaScript walk lstat(2) on the first component that fails.
   */
  realpath(path: string, native: boolean): string {
    const abs = this.resolve(path);
    try {
      this.statOf(abs);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!isFsErrorCode(code) || code === 'EIO') throw error;
      if (native) throw ioError(code, 'realpath', path);
      let prefix = '';
      for (const name of abs.split('/').slice(1)) {
        prefix = `${prefix}/${name}`;
        try {
          linuxPathCheck(this.vol, 'lstat', prefix);
          this.vol.lstatSync(prefix);
        } catch (walked) {
          const at = (walked as { code?: unknown }).code;
          throw ioError(isFsErrorCode(at) ? at : code, 'lstat', prefix);
        }
      }
      throw error;
    }
    // A trailing slash asks for a folder: realpath(3) refuses a file (ENOTDIR); Node's walk resolves the slash away first.
    if (native && path.endsWith('/') && !isDirectoryAt(this.vol, abs)) throw ioError('ENOTDIR', 'realpath', path);
    return abs;
  }

  /** readlink(2): the disk has no symbolic links, so an existing path is EINVAL, as a regular file or folder is on Linux. */
  readlink(path: string): never {
    try {
      this.statOf(this.resolve(path), false);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw isFsErrorCode(code) && code !== 'EIO' ? ioError(code, 'readlink', path) : error;
    }
    throw ioError(path.endsWith('/') && !isDirectoryAt(this.vol, this.resolve(path)) ? 'ENOTDIR' : 'EINVAL', 'readlink', path);
  }

  /** What Linux refuses on the way to a call's paths (linuxChecks.ts), with no armed fault: a gate's look before its own check. */
  pathCheck(syscall: string, ...paths: string[]): void {
    linuxPathCheck(this.vol, syscall, ...paths.map((path) => this.resolve(path)));
  }

  /** What a path names in the page cache — a file, a folder or nothing: the simulator's own look, never a step or a fault. */
  kindAt(path: string): 'file' | 'folder' | undefined {
    const abs = this.resolve(path);
    return !existsAt(this.vol, abs) ? undefined : isDirectoryAt(this.vol, abs) ? 'folder' : 'file';
  }

  /** Whether a path exists in the page cache: the simulator's own look, never a step or a fault. */
  exists(path: string): boolean {
    return existsAt(this.vol, this.resolve(path));
  }

  stat(path: string): { size: number; isFile(): boolean; isDirectory(): boolean } {
    this.enter('stat', this.resolve(path));
    const stats = this.vol.statSync(this.resolve(path));
    const isDirectory = stats.isDirectory();
    return { size: Number(stats.size), isFile: () => !isDirectory, isDirectory: () => isDirectory };
  }
}
