import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { existsAt, isDirectoryAt, nodeAt, nodeOfFd, sizeOfFd } from './memfsLookup.js';

describe('memfsLookup: the answers existsSync and statSync give, without Stats or exceptions', () => {
  const vol = Volume.fromJSON({ '/w/a.txt': 'hello', '/w/d/b.txt': 'xy', '/w/empty': '' });
  vol.mkdirSync('/w/sub', { recursive: true });
  vol.linkSync('/w/a.txt', '/w/d/a-link');
  const paths = ['/', '/w', '/w/a.txt', '/w/d', '/w/d/b.txt', '/w/d/a-link', '/w/empty', '/w/sub', '/w/missing', '/w/a.txt/through-a-file', '/w/missing/deeper', '/nowhere'];

  it.each(paths)('%s', (path) => {
    const exists = vol.existsSync(path);
    expect(existsAt(vol, path)).toBe(exists);
    expect(isDirectoryAt(vol, path)).toBe(exists && vol.statSync(path).isDirectory());
    expect(nodeAt(vol, path)?.ino).toBe(exists ? Number(vol.statSync(path).ino) : undefined);
  });

  it('names one inode for two links to it', () => {
    expect(nodeAt(vol, '/w/d/a-link')?.ino).toBe(nodeAt(vol, '/w/a.txt')?.ino);
  });

  it('gives an open file its size and inode, and EBADF for a closed one', () => {
    const fd = vol.openSync('/w/a.txt', 'a') as number;
    vol.writeSync(fd, Buffer.from(' world'));
    expect(sizeOfFd(vol, fd)).toBe(Number(vol.fstatSync(fd).size));
    expect(sizeOfFd(vol, fd)).toBe(11);
    expect(nodeOfFd(vol, fd).ino).toBe(Number(vol.fstatSync(fd).ino));
    vol.closeSync(fd);
    expect(() => sizeOfFd(vol, fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });
});
