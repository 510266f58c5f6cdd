/**
 * Every file of a memfs volume with its bytes (what processes see), and a digest of them: two disks
 * with equal digests hold the same paths with the same bytes. Read off memfs's tree (no Stats, no
 * access time stamped, no copy: each file's bytes are a view of its inode's, to be read before the
 * volume changes again).
 */
import { createHash } from 'node:crypto';
import type { Volume } from 'memfs';
import { entriesAt, type CoreNode } from './memfsLookup.js';

/** A file's bytes as memfs keeps them: the used part of its buffer. */
function bytesOf(node: CoreNode): Buffer {
  const inode = node as CoreNode & { buf?: Buffer; size: number };
  return inode.buf === undefined ? Buffer.alloc(0) : inode.buf.subarray(0, inode.size);
}

/** Every path under `dir` (files, and folders too when `withFolders`), depth first in readdir's order. */
function walk(vol: Volume, dir: string, visit: (path: string, node: CoreNode) => void): void {
  for (const { name, node } of entriesAt(vol, dir) ?? []) {
    const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
    visit(path, node);
    if (node.isDirectory()) walk(vol, path, visit);
  }
}

export function volumeFiles(vol: Volume): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  walk(vol, '/', (path, node) => {
    if (!node.isDirectory()) files.set(path, bytesOf(node));
  });
  return files;
}

/** Every folder's path (the root's included), in readdir's order. */
export function volumeFolders(vol: Volume): string[] {
  const folders = ['/'];
  walk(vol, '/', (path, node) => {
    if (node.isDirectory()) folders.push(path);
  });
  return folders;
}

/** Every file's path, without its bytes. */
export function volumeFilePaths(vol: Volume): string[] {
  const paths: string[] = [];
  walk(vol, '/', (path, node) => {
    if (!node.isDirectory()) paths.push(path);
  });
  return paths;
}

export function digestOfFiles(files: Map<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  return hash.digest('hex').slice(0, 16);
}
