/**
 * Every file of a memfs volume with its bytes (what processes see), and a digest of them: two disks
 * with equal digests hold the same paths with the same bytes.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Volume } from 'memfs';

export function volumeFiles(vol: Volume): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const name of vol.readdirSync(dir) as string[]) {
      const path = posix.join(dir, String(name));
      if (vol.statSync(path).isDirectory()) walk(path);
      else files.set(path, vol.readFileSync(path) as Buffer);
    }
  };
  walk('/');
  return files;
}

export function digestOfFiles(files: Map<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  return hash.digest('hex').slice(0, 16);
}
