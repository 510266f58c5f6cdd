/**
 * durasim's own files are written the way a correct journal writes: a temporary file in the same
 * folder, written and fsynced, renamed over the target, and the folder fsynced — so a crash leaves
 * either the old file or the whole new one, never a torn or empty one. Folders are created the
 * same way: each new one made durable in its parent.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { maskSecrets } from '../model/contract/secret.js';

let counter = 0;
const TEMP = /^\..+\.durasim-\d+-\d+\.tmp$/;

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** mkdir -p, fsyncing the parent of every folder it creates. */
export function makeDirDurably(dir: string): void {
  const absolute = resolve(dir);
  if (existsSync(absolute)) return;
  makeDirDurably(dirname(absolute));
  mkdirSync(absolute);
  fsyncPath(dirname(absolute));
}

/**
 * Writes `data` to `path` durably and atomically (temp file, fsync, rename, folder fsync). In text,
 * a task's access token (a durasim canary) is masked: durasim persists no secret either. Bytes
 * (a compressed file) are written as they are.
 */
export function writeFileDurably(path: string, data: string | Uint8Array): void {
  const dir = dirname(resolve(path));
  const temp = join(dir, `.${basename(path)}.durasim-${process.pid}-${counter++}.tmp`);
  const fd = openSync(temp, 'wx');
  try {
    if (typeof data === 'string') writeSync(fd, maskSecrets(data));
    else writeSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncPath(dir);
}

/** Removes durably what `writeFileDurably` would have renamed away, had its writer not been killed. */
export function removeStaleTemps(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const name of readdirSync(dir)) if (TEMP.test(name)) rmSync(join(dir, name), { force: true });
}

/** Removes a file durably (the folder fsynced), if it exists. */
export function removeDurably(path: string): void {
  if (!existsSync(path)) return;
  rmSync(path, { force: true });
  fsyncPath(dirname(resolve(path)));
}
