/**
 * What the disk asks memfs on every step — does a path exist, is it a folder, which inode, how long
 * is an open file — answered from memfs's own tree without building a Stats object (four Dates
 * each) or throwing and catching an error for every missing path, as existsSync and statSync do.
 * The answers are theirs: a path through a file, or a folder without search permission, does not
 * exist; symbolic links are followed. Paths are absolute and normalized (Disk.resolve).
 */
import type { Volume } from 'memfs';
import { ioError } from './ioError.js';

interface CoreNode {
  ino: number;
  isDirectory(): boolean;
  getSize(): number;
}

const stepsOf = (abs: string): string[] => (abs === '/' ? [] : abs.slice(1).split('/'));

/** The inode at `abs`, or undefined where existsSync says false. */
export function nodeAt(vol: Volume, abs: string): CoreNode | undefined {
  const found = vol._core.walk(stepsOf(abs), true, false, true);
  return found.ok && found.value ? (found.value.getNode() as CoreNode) : undefined;
}

export function existsAt(vol: Volume, abs: string): boolean {
  return nodeAt(vol, abs) !== undefined;
}

export function isDirectoryAt(vol: Volume, abs: string): boolean {
  return nodeAt(vol, abs)?.isDirectory() ?? false;
}

/** The inode open as `fd`, as fstatSync(fd) describes it; EBADF as it throws it. */
export function nodeOfFd(vol: Volume, fd: number): CoreNode {
  const file = vol._core.getFileByFd(fd);
  if (!file) throw ioError('EBADF', 'fstat');
  return file.node as CoreNode;
}

/** The size of the file open as `fd`, as fstatSync(fd).size gives it. */
export function sizeOfFd(vol: Volume, fd: number): number {
  return nodeOfFd(vol, fd).getSize();
}
