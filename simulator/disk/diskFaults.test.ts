import { describe, expect, test } from 'vitest';
import { GARBAGE_BYTE } from './crashBytes.js';
import { Disk } from './disk.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const fresh = (): Disk => new Disk('/work', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
const append = (disk: Disk, path: string, data: string): void => disk.writeWhole(path, text(data), 'a', 0);
const codeOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return { code: (error as { code?: string }).code, syscall: (error as { syscall?: string }).syscall, message: (error as Error).message };
  }
  return 'no error';
};

describe('per-file crash: each file keeps its own prefix of unsynced appends', () => {
  const twoFiles = (): Disk => {
    const disk = fresh();
    for (const line of ['a1\n', 'a2\n']) append(disk, 'a.txt', line);
    for (const line of ['b1\n', 'b2\n']) append(disk, 'b.txt', line);
    return disk;
  };

  test('one file keeps its first append while the other loses both', () => {
    const disk = twoFiles();
    expect(disk.unsyncedAppends()).toEqual({ 'a.txt': 2, 'b.txt': 2 });
    const report = disk.crash({ mode: 'per-file', keep: { 'a.txt': 1 } });
    expect(disk.liveView().readFile('a.txt')).toBe('A\na1\n');
    expect(disk.liveView().readFile('b.txt')).toBe('B\n');
    expect(report.lostData).toEqual([{ path: '/work/a.txt', bytes: 3 }, { path: '/work/b.txt', bytes: 6 }]);
  });

  test('the other order: b keeps everything, a nothing (no keep is lose-unsynced)', () => {
    const disk = twoFiles();
    disk.crash({ mode: 'per-file', keep: { 'b.txt': 9 } });
    expect(disk.liveView().readFile('a.txt')).toBe('A\n');
    expect(disk.liveView().readFile('b.txt')).toBe('B\nb1\nb2\n');
    const none = twoFiles();
    none.crash({ mode: 'per-file' });
    expect([none.liveView().readFile('a.txt'), none.liveView().readFile('b.txt')]).toEqual(['A\n', 'B\n']);
  });
});

describe('torn tails: what fills the rest of a torn append', () => {
  const torn = (tail: 'cut' | 'zeros' | 'garbage'): string | undefined => {
    const disk = fresh();
    append(disk, 'a.txt', 'abcd');
    disk.crash({ mode: 'torn-tail', tornKeepBytes: 1, tail });
    return disk.liveView().readFile('a.txt');
  };

  test('cut ends the file; zeros and garbage keep the append\'s length', () => {
    expect(torn('cut')).toBe('A\na');
    expect(torn('zeros')).toBe('A\na\0\0\0');
    // Garbage is the byte 0xA5 repeated: not UTF-8, so it reads as replacement characters.
    expect(GARBAGE_BYTE).toBe(0xa5);
    expect(torn('garbage')).toBe(`A\na${'\uFFFD'.repeat(3)}`);
  });
});

describe('I/O errors armed for one step', () => {
  test('a failed fsync (Linux): EIO, the data stays visible, never becomes durable, and a later fsync succeeds', () => {
    const disk = fresh();
    const file = disk.openFile('a.txt', 'a', 0);
    disk.handleWrite(file.fd, text('intent\n'));
    disk.faults.arm({ error: 'EIO' });
    expect(codeOf(() => disk.handleSync(file.fd))).toEqual({ code: 'EIO', syscall: 'fsync', message: 'EIO: i/o error, fsync' });
    expect(disk.faults.disarm()).toMatch(/^EIO: fsync of \/work\/a.txt failed/);
    expect(disk.liveView().readFile('a.txt')).toBe('A\nintent\n');
    expect(codeOf(() => disk.handleSync(file.fd))).toBe('no error');
    expect(disk.durableView().readFile('a.txt')).toBe('A\n');
    expect(disk.lossIfCrashedNow().lostData).toEqual([{ path: '/work/a.txt', bytes: 7 }]);
    disk.handleClose(file.fd);
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('A\n');
  });

  test('after a failed fsync, a later append that reaches the disk leaves the dropped bytes as zeros', () => {
    const disk = fresh();
    const file = disk.openFile('a.txt', 'a', 0);
    disk.handleWrite(file.fd, text('lost\n'));
    disk.faults.arm({ error: 'EIO' });
    expect(() => disk.handleSync(file.fd)).toThrow(/EIO/);
    disk.faults.disarm();
    disk.handleWrite(file.fd, text('next\n'));
    disk.handleSync(file.fd);
    expect(disk.durableView().readFile('a.txt')).toBe('A\n\0\0\0\0\0next\n');
    expect(disk.liveView().readFile('a.txt')).toBe('A\nlost\nnext\n');
  });

  test('a failed fsync of a rewrite: the old bytes stay durable; a later append persists zeros over the rewrite', () => {
    const disk = fresh();
    const file = disk.openFile('a.txt', 'w', 0);
    disk.handleWrite(file.fd, text('new'));
    disk.faults.arm({ error: 'EIO' });
    expect(() => disk.handleSync(file.fd)).toThrow(/EIO/);
    disk.faults.disarm();
    expect(disk.durableView().readFile('a.txt')).toBe('A\n');
    disk.handleWrite(file.fd, text('!'));
    disk.handleSync(file.fd);
    expect(disk.durableView().readFile('a.txt')).toBe('\0\0\0!');
  });

  test('a short write: ENOSPC after storing a prefix', () => {
    const disk = fresh();
    disk.faults.arm({ error: 'ENOSPC', writtenBytes: 3 });
    expect(codeOf(() => append(disk, 'a.txt', 'record\n'))).toEqual({ code: 'ENOSPC', syscall: 'write', message: 'ENOSPC: no space left on device, write' });
    expect(disk.faults.disarm()).toBe('ENOSPC: write to /work/a.txt stored 3 of 7 bytes and failed');
    expect(disk.liveView().readFile('a.txt')).toBe('A\nrec');
    disk.faults.arm({ error: 'ENOSPC', writtenBytes: 99 });
    expect(() => append(disk, 'a.txt', 'xy')).toThrow(/ENOSPC/);
    disk.faults.disarm();
    expect(disk.liveView().readFile('a.txt')).toBe('A\nrecx');
  });

  test('a read, a rename and a close fail; only the close still releases the handle; the fault hits one call only', () => {
    const disk = fresh();
    disk.faults.arm({ error: 'EIO' });
    expect(codeOf(() => disk.readFile('a.txt'))).toEqual({ code: 'EIO', syscall: 'read', message: "EIO: i/o error, read '/work/a.txt'" });
    expect(disk.readFile('a.txt').toString()).toBe('A\n');
    disk.faults.disarm();
    disk.faults.arm({ error: 'EIO' });
    expect(() => disk.rename('a.txt', 'c.txt')).toThrow(/EIO: i\/o error, rename/);
    disk.faults.disarm();
    expect(disk.liveView().readFile('a.txt')).toBe('A\n');
    const file = disk.openFile('a.txt', 'r', 0);
    disk.faults.arm({ error: 'EIO' });
    expect(() => disk.handleClose(file.fd)).toThrow(/EIO/);
    expect(() => disk.handle(file.fd)).toThrow(/EBADF/);
    expect(disk.faults.disarm()).toBe('EIO: close of /work/a.txt failed (the handle is released)');
  });
});
