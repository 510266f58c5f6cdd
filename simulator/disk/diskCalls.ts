/** Calls on a Disk as a journal makes them through a handle, for the disk's own tests: write (and maybe fsync) a file, fsync a folder. */
import type { Disk } from './disk.js';

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** open(path, flags), write `data`, fsync when `sync`, close. */
export function writeThrough(disk: Disk, path: string, data: string, flags: 'a' | 'w', sync: boolean): void {
  const file = disk.openFile(path, flags, 0);
  disk.handleWrite(file.fd, text(data));
  if (sync) disk.handleSync(file.fd);
  disk.handleClose(file.fd);
}

/** fsync of a folder (default: the work dir): its entries become durable. */
export function syncFolder(disk: Disk, folder = '/work'): void {
  const dir = disk.openFile(folder, 'r', 0);
  disk.handleSync(dir.fd);
  disk.handleClose(dir.fd);
}
