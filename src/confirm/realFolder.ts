/**
 * The real folder a confirmation runs in, as its parent reads and writes it: the journal's view of
 * it for inspect(), a user's save as the simulated user makes it, and a crash image put in its place.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DiskView } from '../../model/contract/contract.js';

/** The folder `dir` as a journal's inspect() reads it: a missing file undefined, a missing folder empty. */
export function realDiskView(dir: string): DiskView {
  return {
    dir,
    readFile: (path) => {
      try {
        return readFileSync(join(dir, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    readdir: (path) => {
      try {
        return readdirSync(join(dir, path)).sort();
      } catch {
        return [];
      }
    },
  };
}

/** A user's save, as the simulated user makes it: in place, fsynced, and its folder fsynced. */
export function userSave(dir: string, path: string, text: string): void {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  for (const target of [file, dirname(file)]) {
    const fd = openSync(target, 'r');
    fsyncSync(fd);
    closeSync(fd);
  }
}

/** Writes a crash image into a fresh folder at `dir` (the old one is moved aside): every folder, every file. */
export function writeImage(dir: string, aside: string, image: { files: Map<string, Buffer>; folders: string[] }): void {
  renameSync(dir, aside);
  mkdirSync(dir);
  const under = (path: string): boolean => path.startsWith(`${dir}/`);
  for (const folder of image.folders) if (under(folder)) mkdirSync(folder, { recursive: true });
  for (const [path, bytes] of image.files) if (under(path)) writeFileSync(path, bytes);
}
