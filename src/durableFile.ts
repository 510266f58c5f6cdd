/**
 * durasim's own files are written the way a correct journal writes: a temporary file in the same
 * folder, written and fsynced, renamed over the target, and the folder fsynced — so a crash leaves
 * either the old file or the whole new one, never a torn or empty one. Folders are created the
 * same way: each new one made durable in its parent.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { maskSecrets } from '../model/contract/secret.js';

let counter = 0;
const TEMP = /^\..+\.durasim-(\d+)-\d+\.tmp$/;
const PROBE = /^\.durasim-probe-(\d+)$/;

/** Whether a process with this pid is running (one of another user's counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what a killed durasim left in `dir`: the temp files of its durable writes and its
 * writability probes, each named with its writer's pid. Only a writer that is no longer running is
 * swept (another durasim writing into the same folder keeps its files), never this process's own.
 */
export function sweepLeftovers(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no folder, nothing left over
  }
  for (const name of names) {
    const pid = Number(TEMP.exec(name)?.[1] ?? PROBE.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(dir, name), { force: true });
  }
}

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
  sweepLeftovers(dir);
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


/** Removes a file durably (the folder fsynced), if it exists; says whether it did. */
export function removeDurably(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  fsyncPath(dirname(resolve(path)));
  return true;
}

/** Removes a folder durably (its parent fsynced) if it is empty; says whether it did. */
export function removeEmptyDirDurably(dir: string): boolean {
  if (!existsSync(dir) || readdirSync(dir).length > 0) return false;
  rmdirSync(dir);
  fsyncPath(dirname(resolve(dir)));
  return true;
}
