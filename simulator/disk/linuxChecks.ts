/**
 * What Linux refuses and memfs lets through, checked before the disk hands a call to memfs (each
 * found by the differential test against real node:fs, properties/fsConformance.test.ts):
 * - a folder on the way to a path that is a file: ENOTDIR (memfs says ENOENT);
 * - rename: a folder into itself (EINVAL: memfs lets it vanish), anything onto one of its own
 *   folders (ENOTEMPTY), a folder over a file (ENOTDIR) or
 *   over a non-empty folder (ENOTEMPTY), a file over a folder (EISDIR);
 * - link: a folder (EPERM), after the source and the target's folder were found;
 * - names too long: a path of PATH_MAX (4,096) bytes or more, or a component over NAME_MAX (255
 *   bytes, UTF-8) where the walk reaches it: ENAMETOOLONG (memfs takes any length). Linux measures
 *   the path as given; this measures the resolved one, so a relative path within 6 bytes of the
 *   limit ("/work/" is 6) is refused here and not there. A folder missing on the way, or a file
 *   in a folder's place, is found first (ENOENT, ENOTDIR), as the kernel's walk finds it.
 */
import type { Volume } from 'memfs';
import { posix } from 'node:path';
import { ioError } from './ioError.js';
import { existsAt, isDirectoryAt as isDirectory, linkAt, nodeAt } from './memfsLookup.js';

/** PATH_MAX and NAME_MAX of Linux, in bytes. */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;

/**
 * The kernel's walk of a call's paths: each path's folders (a name too long: ENAMETOOLONG; a file
 * in a folder's place: ENOTDIR; a missing one is left to memfs: ENOENT), then — every path's folder
 * found — the last names (ENAMETOOLONG).
 */
export function linuxPathCheck(vol: Volume, syscall: string, ...paths: string[]): void {
  let longName: string | undefined;
  for (const abs of paths) {
    if (abs.length * 3 > NAME_MAX) {
      if (Buffer.byteLength(abs) >= PATH_MAX || folderNameTooLong(vol, abs)) throw ioError('ENAMETOOLONG', syscall, abs);
      if (longName === undefined && Buffer.byteLength(posix.basename(abs)) > NAME_MAX) longName = abs;
    }
    if (fileOnTheWay(vol, abs)) throw ioError('ENOTDIR', syscall, abs);
    // A folder missing on the way ends the walk here (ENOENT, from memfs) before a later path is looked at.
    if (paths.length > 1 && nodeAt(vol, posix.dirname(abs)) === undefined) return;
  }
  if (longName === undefined || !paths.every((abs) => nodeAt(vol, posix.dirname(abs))?.isDirectory() === true)) return;
  // The last names, in order: a source missing ends the call (ENOENT) before a later name is looked at.
  for (const [i, abs] of paths.entries()) {
    if (abs.length * 3 > NAME_MAX && Buffer.byteLength(posix.basename(abs)) > NAME_MAX) throw ioError('ENAMETOOLONG', syscall, abs);
    if (i < paths.length - 1 && !existsAt(vol, abs)) return;
  }
}

/**
 * Whether the walk to `abs` meets a folder name over NAME_MAX before it stops (at a folder missing
 * or not a folder: ENOENT or ENOTDIR come first). Asked only of paths long enough to hold such a
 * name (a UTF-16 unit is at most 3 bytes of UTF-8).
 */
function folderNameTooLong(vol: Volume, abs: string): boolean {
  const parts = abs.split('/').filter(Boolean);
  for (let i = 0; i < parts.length - 1; i++) {
    if (Buffer.byteLength(parts[i] as string) > NAME_MAX) return true;
    const folder = nodeAt(vol, `/${parts.slice(0, i + 1).join('/')}`);
    if (folder === undefined || !folder.isDirectory()) return false;
  }
  return false;
}

/**
 * Whether a folder on the way to `abs` (not `abs` itself) is a file: each ancestor as existsSync
 * finds it, in one walk down (the walk stops at the first ancestor missing or out of reach).
 */
function fileOnTheWay(vol: Volume, abs: string): boolean {
  let link = linkAt(vol, '/');
  let at = 0;
  for (let next = abs.indexOf('/', 1); next !== -1 && link !== undefined; next = abs.indexOf('/', next + 1)) {
    const child = descend(vol, link, abs.slice(at + 1, next));
    at = next;
    if (child === undefined) return false;
    // A symbolic link on the way: the ancestors from here are looked up from the top, as existsSync would.
    if (child.getNode().isSymlink()) return slowFileOnTheWay(vol, abs, at);
    if (!child.getNode().isDirectory()) return true;
    link = child;
  }
  return false;
}

/** The link named `name` in the folder `link`, where a walk may go (a folder it may search). */
function descend(vol: Volume, link: NonNullable<ReturnType<typeof linkAt>>, name: string): ReturnType<typeof linkAt> {
  const node = link.getNode();
  const process = (vol._core as unknown as { process: { getuid?: () => number; getgid?: () => number } }).process;
  if (!node.isDirectory() || !node.canExecute(process.getuid?.() ?? 0, process.getgid?.() ?? 0)) return undefined;
  return link.children.get(name);
}

function slowFileOnTheWay(vol: Volume, abs: string, from: number): boolean {
  for (let at = abs.indexOf('/', Math.max(1, from)); at !== -1; at = abs.indexOf('/', at + 1)) {
    const folder = nodeAt(vol, abs.slice(0, at));
    if (folder === undefined) return false;
    if (!folder.isDirectory()) return true;
  }
  return false;
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
