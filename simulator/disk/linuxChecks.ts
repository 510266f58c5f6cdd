/**
 * What Linux refuses and memfs lets through, checked before the disk hands a call to memfs (each
 * found by the differential test against real node:fs, properties/fsConformance.test.ts):
 * - a folder on the way to a path that is a file: ENOTDIR (memfs says ENOENT);
 * - rename: a folder into itself (EINVAL: memfs lets it vanish), anything onto one of its own
 *   folders (ENOTEMPTY), a folder over a file (ENOTDIR) or
 *   over a non-empty folder (ENOTEMPTY), a file over a folder (EISDIR);
 * - link: a folder (EPERM), after the source and the target's folder were found.
 */
import type { Volume } from 'memfs';
import { posix } from 'node:path';
import { ioError } from './ioError.js';
import { existsAt, isDirectoryAt as isDirectory, nodeAt } from './memfsLookup.js';

/** ENOTDIR when a folder on the way to one of `paths` is a file; a missing one is left to memfs (ENOENT). */
export function linuxPathCheck(vol: Volume, syscall: string, ...paths: string[]): void {
  for (const abs of paths) {
    for (let at = abs.indexOf('/', 1); at !== -1; at = abs.indexOf('/', at + 1)) {
      const folder = nodeAt(vol, abs.slice(0, at));
      if (folder === undefined) break;
      if (!folder.isDirectory()) throw ioError('ENOTDIR', syscall, abs);
    }
  }
}

export function linuxRenameCheck(vol: Volume, source: string, target: string): void {
  if (!existsAt(vol, source) || !isDirectory(vol, posix.dirname(target))) return; // memfs: ENOENT
  const names = (abs: string): number => (vol.readdirSync(abs) as unknown[]).length;
  // Onto one of its own folders: ENOTEMPTY (the kernel's check that the target is not an ancestor).
  const error = target.startsWith(`${source}/`) ? 'EINVAL' : source.startsWith(`${target}/`) ? 'ENOTEMPTY' : !existsAt(vol, target) || source === target ? undefined
    : isDirectory(vol, source) ? (!isDirectory(vol, target) ? 'ENOTDIR' : names(target) > 0 ? 'ENOTEMPTY' : undefined)
    : isDirectory(vol, target) ? 'EISDIR' : undefined;
  if (error) throw ioError(error, 'rename', source, target);
}

export function linuxLinkCheck(vol: Volume, existing: string, to: string): void {
  linuxPathCheck(vol, 'link', existing);
  if (!existsAt(vol, existing)) return; // memfs: ENOENT
  linuxPathCheck(vol, 'link', to);
  if (isDirectory(vol, existing) && !existsAt(vol, to) && isDirectory(vol, posix.dirname(to))) throw ioError('EPERM', 'link', existing, to);
}
