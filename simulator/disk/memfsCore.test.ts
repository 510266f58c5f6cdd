/**
 * The disk's hot calls on memfs's objects (memfsCore.ts) against the Volume calls they stand for:
 * the same volumes, the same call, the same answer or the same error (code and message), and the
 * same files afterwards — for files, folders, missing names, paths through a file, symbolic links,
 * every flag node:fs knows, exclusive creates and truncations.
 */
import { Volume } from 'memfs';
import { FLAGS } from '@jsonjoy.com/fs-node-utils';
import { describe, expect, test } from 'vitest';
import { closeFd, OPEN_FLAGS, openFd, readAt, readWhole, writeAt } from './memfsCore.js';

/** A volume with a file, a folder, a nested file, a file where a folder is expected, and symbolic links. */
function volume(): Volume {
  const vol = Volume.fromJSON({ '/work/a.txt': 'alpha', '/work/dir/b.txt': 'beta', '/work/empty': '' });
  vol.mkdirSync('/work/sub');
  vol.symlinkSync('/work/a.txt', '/work/link-to-a');
  vol.symlinkSync('/work/dir', '/work/link-to-dir');
  vol.symlinkSync('/work/missing', '/work/dangling');
  return vol;
}

const PATHS = ['/work/a.txt', '/work/dir/b.txt', '/work/empty', '/work/new.txt', '/work/dir', '/work/sub', '/work/missing/x', '/work/a.txt/x', '/work/link-to-a', '/work/link-to-dir/b.txt', '/work/dangling', '/', '/work'];

/** What a call gave: its value, or its error's code and message. */
function outcome<T>(call: () => T): { value: T } | { error: string } {
  try {
    return { value: call() };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { error: `${e.code ?? 'no code'}: ${e.message ?? String(error)}` };
  }
}

/** Every file of the volume with its text, and every folder: what a call left behind. */
function contents(vol: Volume): Record<string, string> {
  const json = vol.toJSON();
  return Object.fromEntries(Object.entries(json).map(([path, text]) => [path, text ?? '<folder>']));
}

describe('memfsCore against the Volume calls it stands for', () => {
  test("its flag numbers are memfs's, every one of them", () => {
    const memfs = Object.fromEntries(Object.entries(FLAGS).filter(([name]) => Number.isNaN(Number(name))));
    expect(OPEN_FLAGS).toEqual(memfs);
  });

  test('openFd: the same fd state, the same error, the same files, for every path and every flag', () => {
    let compared = 0;
    for (const path of PATHS) {
      for (const flags of [...Object.keys(OPEN_FLAGS), 'as', 'bogus']) {
        const [slow, fast] = [volume(), volume()];
        const viaVolume = outcome(() => slow.openSync(path, flags) as number);
        const viaCore = outcome(() => openFd(fast, path, flags));
        if ('error' in viaVolume) expect(viaCore, `${flags} ${path}`).toEqual(viaVolume);
        else {
          expect('value' in viaCore, `${flags} ${path}: ${JSON.stringify(viaCore)}`).toBe(true);
          const fd = (viaCore as { value: { fd: number; created: boolean } }).value.fd;
          // The open files behave alike: the same size, the same bytes read from the start.
          expect(fast.fstatSync(fd).size, `${flags} ${path}`).toBe(slow.fstatSync(viaVolume.value).size);
          expect(fast.fstatSync(fd).isDirectory()).toBe(slow.fstatSync(viaVolume.value).isDirectory());
        }
        expect(contents(fast), `${flags} ${path}`).toEqual(contents(slow));
        compared++;
      }
    }
    expect(compared).toBe(PATHS.length * (Object.keys(OPEN_FLAGS).length + 2));
  });

  test('openFd says whether it created the file', () => {
    const vol = volume();
    expect(openFd(vol, '/work/a.txt', 'a').created).toBe(false);
    expect(openFd(vol, '/work/fresh.txt', 'a').created).toBe(true);
    expect(openFd(vol, '/work/fresh.txt', 'w').created).toBe(false);
    expect(openFd(vol, '/work/link-to-a', 'a').created).toBe(false);
  });

  test('readWhole: the same bytes or the same error as readFileSync', () => {
    for (const path of PATHS) {
      const [slow, fast] = [volume(), volume()];
      const viaVolume = outcome(() => (slow.readFileSync(path) as Buffer).toString('utf8'));
      const viaCore = outcome(() => readWhole(fast, path).toString('utf8'));
      expect(viaCore, path).toEqual(viaVolume);
    }
  });

  test('writeAt, readAt and closeFd: as writeSync, readSync and closeSync on the same fd', () => {
    const [slow, fast] = [volume(), volume()];
    const a = slow.openSync('/work/a.txt', 'r+') as number;
    const b = openFd(fast, '/work/a.txt', 'r+').fd;
    for (const [bytes, at] of [['XY', 0], ['tail', 5], ['', 2], ['far', 12]] as const) {
      slow.writeSync(a, Buffer.from(bytes), 0, bytes.length, at);
      writeAt(fast, b, Buffer.from(bytes), at);
      expect(contents(fast)).toEqual(contents(slow));
    }
    for (const [length, at] of [[4, 0], [10, 3], [0, 1], [5, 40]] as const) {
      const [x, y] = [Buffer.alloc(length), Buffer.alloc(length)];
      expect(readAt(fast, b, y, at)).toBe(slow.readSync(a, x, 0, length, at));
      expect(y).toEqual(x);
    }
    slow.closeSync(a);
    closeFd(fast, b);
    expect(() => fast.fstatSync(b)).toThrow(/EBADF/);
    expect(() => closeFd(fast, b)).toThrow(/no open file/);
  });
});
