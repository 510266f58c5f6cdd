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
import { existsAt, isDirectoryAt as isDirectory, linkAt, nodeAt } from './memfsLookup.js';

/** ENOTDIR when a folder on the way to one of `paths` is a file; a missing one is left to memfs (ENOENT). */
export function linuxPathCheck(vol: Volume, syscall: string, ...paths: string[]): void {
  for (const abs of paths) if (fileOnTheWay(vol, abs)) throw ioError('ENOTDIR', syscall, abs);
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
