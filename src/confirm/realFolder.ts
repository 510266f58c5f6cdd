/**
 * The real folder a confirmation runs in, as its parent reads and writes it: made with the
 * scenario's files, the journal's view of it for inspect(), a user's save as the simulated user makes it, and a crash image put in its place.
 */
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** A confirmation's own temporary folder: `work/` (the journal's folder) holding the scenario's files, and `side/` for the workers' side files. */
export function makeRunFolder(files: Readonly<Record<string, string>>): { root: string; dir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'durasim-confirm-')));
  const dir = join(root, 'work');
  mkdirSync(join(root, 'side'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  return { root, dir };
}
