import { describe, expect, test } from 'vitest';
import { Disk } from './disk.js';
import { syncFolder as syncDir, text, writeThrough } from './diskCalls.js';
import { spareVolumeCount } from './diskState.js';
import { SimulatorInvariantError } from '../invariant.js';

const fresh = (): Disk => new Disk('/work', { 'a.txt': 'original\n' });
const appendSynced = (disk: Disk, path: string, data: string, sync: boolean): void => writeThrough(disk, path, data, 'a', sync);

describe('Disk durability', () => {
  test('initial files are durable', () => {
    const disk = fresh();
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('original\n');
  });

  test('un-fsynced appends are lost on a machine crash; fsynced ones survive', () => {
    const disk = fresh();
    appendSynced(disk, 'a.txt', 'synced\n', true);
    appendSynced(disk, 'a.txt', 'volatile\n', false);
    expect(disk.liveView().readFile('a.txt')).toBe('original\nsynced\nvolatile\n');
    expect(disk.durableView().readFile('a.txt')).toBe('original\nsynced\n');
    const report = disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('original\nsynced\n');
    expect(report.lostData).toEqual([{ path: '/work/a.txt', bytes: 'volatile\n'.length }]);
  });

  test('keep-all (a process kill) loses nothing, and unsynced data stays volatile', () => {
    const disk = fresh();
    appendSynced(disk, 'a.txt', 'volatile\n', false);
    const report = disk.crash({ mode: 'keep-all' });
    expect(report.lostData).toEqual([]);
    expect(disk.liveView().readFile('a.txt')).toBe('original\nvolatile\n');
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('original\n');
  });

  test('a new file vanishes without a directory fsync, even when its data was fsynced', () => {
    const disk = fresh();
    appendSynced(disk, 'new.txt', 'data\n', true);
    const report = disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('new.txt')).toBeUndefined();
    expect(report.lostEntries).toEqual(['/work/new.txt']);
  });

  test('a new file survives with a directory fsync; its data only if fsynced', () => {
    const disk = fresh();
    appendSynced(disk, 'kept.txt', 'data\n', true);
    appendSynced(disk, 'empty.txt', 'data\n', false);
    syncDir(disk);
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('kept.txt')).toBe('data\n');
    expect(disk.liveView().readFile('empty.txt')).toBe('');
  });

  test('a rename is lost without a directory fsync, and kept with one', () => {
    const lost = fresh();
    lost.writeWhole('tmp.txt', text('candidate\n'), 'w', 0);
    const tmp = lost.openFile('tmp.txt', 'r', 0);
    lost.handleSync(tmp.fd);
    lost.handleClose(tmp.fd);
    syncDir(lost);
    lost.rename('tmp.txt', 'a.txt');
    expect(lost.liveView().readFile('a.txt')).toBe('candidate\n');
    const report = lost.crash({ mode: 'lose-unsynced' });
    expect(lost.liveView().readFile('a.txt')).toBe('original\n');
    expect(lost.liveView().readFile('tmp.txt')).toBe('candidate\n');
    expect(report.lostData.map((d) => d.path)).toEqual(['/work/a.txt']);

    const kept = fresh();
    kept.writeWhole('tmp.txt', text('candidate\n'), 'w', 0);
    const handle = kept.openFile('tmp.txt', 'r', 0);
    kept.handleSync(handle.fd);
    kept.handleClose(handle.fd);
    kept.rename('tmp.txt', 'a.txt');
    syncDir(kept);
    kept.crash({ mode: 'lose-unsynced' });
    expect(kept.liveView().readFile('a.txt')).toBe('candidate\n');
    expect(kept.liveView().readFile('tmp.txt')).toBeUndefined();
  });

  test('an unlink comes back without a directory fsync', () => {
    const disk = fresh();
    disk.unlink('a.txt');
    const report = disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('original\n');
    expect(report.restoredEntries).toEqual(['/work/a.txt']);
  });

  test('torn-tail keeps earlier unsynced appends and a prefix of the last one', () => {
    const disk = fresh();
    appendSynced(disk, 'a.txt', 'first\n', false);
    appendSynced(disk, 'a.txt', '{"state":"dispatched"}\n', false);
    const report = disk.crash({ mode: 'torn-tail', tornKeepBytes: 5 });
    expect(disk.liveView().readFile('a.txt')).toBe('original\nfirst\n{"sta');
    expect(report.torn).toEqual([{ path: '/work/a.txt', keptBytes: 5, ofBytes: 23 }]);
  });

  test('torn-tail never keeps the whole last append, and defaults to half of it', () => {
    const whole = fresh();
    appendSynced(whole, 'a.txt', 'abcd', false);
    whole.crash({ mode: 'torn-tail', tornKeepBytes: 99 });
    expect(whole.liveView().readFile('a.txt')).toBe('original\nabc');
    const half = fresh();
    appendSynced(half, 'a.txt', 'abcd', false);
    half.crash({ mode: 'torn-tail' });
    expect(half.liveView().readFile('a.txt')).toBe('original\nab');
  });

  test('a rewrite is not torn: it falls back to the durable bytes', () => {
    const disk = fresh();
    disk.writeWhole('a.txt', text('rewritten\n'), 'w', 0);
    disk.crash({ mode: 'torn-tail', tornKeepBytes: 3 });
    expect(disk.liveView().readFile('a.txt')).toBe('original\n');
  });

  test('a user save is durable at once', () => {
    const disk = fresh();
    disk.userWrite('b.txt', 'user text\n');
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('b.txt')).toBe('user text\n');
  });

  test('exclusive create fails on an existing file with EEXIST', () => {
    const disk = fresh();
    expect(() => disk.openFile('a.txt', 'wx', 0)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  });

  test('handles die with the crash', () => {
    const disk = fresh();
    const file = disk.openFile('a.txt', 'a', 0);
    disk.crash({ mode: 'lose-unsynced' });
    expect(() => disk.handleWrite(file.fd, text('x'))).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });
});

describe('Disk metadata', () => {
  const modeOf = (disk: Disk, path: string): number => disk.statOf(path).mode & 0o7777;

  test('files and folders are made with the umask 022; an open mode of its own is kept (less the umask)', () => {
    const disk = fresh();
    expect(modeOf(disk, 'a.txt')).toBe(0o644);
    disk.mkdir('d', false);
    expect(modeOf(disk, 'd')).toBe(0o755);
    expect(disk.statOf('d').size).toBe(4096);
    disk.handleClose(disk.openFile('secret', 'w', 0, 0o666 & 0o600).fd);
    expect(modeOf(disk, 'secret')).toBe(0o600);
    disk.handleClose(disk.openFile('wide', 'w', 0, 0o777).fd);
    expect(modeOf(disk, 'wide')).toBe(0o755);
  });

  test('a chmod or chown is durable once the file is fsynced: a machine crash before it restores the old mode, after it the new', () => {
    const disk = fresh();
    disk.changeMeta('chmod', 'a.txt', { kind: 'mode', mode: 0o600 });
    expect(modeOf(disk, 'a.txt')).toBe(0o600);
    disk.crash({ mode: 'lose-unsynced' });
    expect(modeOf(disk, 'a.txt')).toBe(0o644);
    const file = disk.openFile('a.txt', 'r', 0);
    disk.changeMeta('fchmod', file.fd, { kind: 'mode', mode: 0o640 });
    disk.handleSync(file.fd);
    disk.handleClose(file.fd);
    disk.crash({ mode: 'lose-unsynced' });
    expect(modeOf(disk, 'a.txt')).toBe(0o640);
    // and it stays durable through the next crash too
    disk.crash({ mode: 'lose-unsynced' });
    expect(modeOf(disk, 'a.txt')).toBe(0o640);
    disk.crash({ mode: 'keep-all' });
    expect(modeOf(disk, 'a.txt')).toBe(0o640);
  });

  test('utimes sets the times on the inode; a missing path is ENOENT', () => {
    const disk = fresh();
    disk.changeMeta('utime', 'a.txt', { kind: 'times', atime: 1, mtime: 2 });
    expect(disk.statOf('a.txt').mtimeMs).toBe(2000);
    expect(() => disk.changeMeta('chmod', 'missing', { kind: 'mode', mode: 0o600 })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('Disk inode identity', () => {
  test("a file created after another was deleted never inherits the deleted one's durable bytes", () => {
    const disk = fresh();
    appendSynced(disk, 'lock.tmp', '{"pid":0}', true);
    disk.unlink('lock.tmp');
    appendSynced(disk, 'journal.jsonl', 'record\n', true);
    syncDir(disk);
    expect(disk.durableView().readFile('journal.jsonl')).toBe('record\n');
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('journal.jsonl')).toBe('record\n');
  });

  test('a hard link shares the inode and becomes durable with a directory fsync', () => {
    const disk = fresh();
    appendSynced(disk, 'candidate', 'new\n', true);
    disk.link('candidate', 'target');
    expect(() => disk.link('candidate', 'a.txt')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    syncDir(disk);
    disk.unlink('candidate');
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('target')).toBe('new\n');
    expect(disk.liveView().readFile('candidate')).toBe('new\n');
  });
});

describe('model defects found by probing (issue 14), each pinned', () => {
  const syncFolder = (disk: Disk, path: string): void => {
    const dir = disk.openFile(path, 'r', 0);
    disk.handleSync(dir.fd);
    disk.handleClose(dir.fd);
  };

  /** a/x.txt moved to b/x.txt, one folder (or none) fsynced, then a machine crash: what each folder holds. */
  const moveAcross = (syncing: string | undefined): { a: string[]; b: string[]; moved: string | undefined } => {
    const disk = new Disk('/work', { 'a/x.txt': 'data\n', 'b/keep.txt': 'k\n' });
    disk.rename('a/x.txt', 'b/x.txt');
    if (syncing) syncFolder(disk, syncing);
    disk.crash({ mode: 'lose-unsynced' });
    const view = disk.liveView();
    return { a: view.readdir('a'), b: view.readdir('b'), moved: view.readFile('b/x.txt') };
  };

  test('a rename across folders is one atomic change: an fsync of either folder makes it durable on both sides', () => {
    expect(moveAcross('/work/b')).toEqual({ a: [], b: ['keep.txt', 'x.txt'], moved: 'data\n' });
    expect(moveAcross('/work/a')).toEqual({ a: [], b: ['keep.txt', 'x.txt'], moved: 'data\n' });
  });

  test('an unsynced rename is lost whole: the file stays where it was', () => {
    expect(moveAcross(undefined)).toEqual({ a: ['x.txt'], b: ['keep.txt'], moved: undefined });
  });

  /** new.txt created with `before` (its entry durable, its bytes not), then reopened with 'w' and appended `after` to. */
  const reopened = (before: string, after: string): { disk: Disk; fd: number } => {
    const disk = fresh();
    const first = disk.openFile('new.txt', 'w', 0);
    disk.handleWrite(first.fd, text(before));
    disk.handleClose(first.fd);
    syncDir(disk);
    const again = disk.openFile('new.txt', 'w', 0);
    disk.handleWrite(again.fd, text(after));
    return { disk, fd: again.fd };
  };

  test("reopening a never-synced file with 'w' drops its unsynced appends: an append and an fsync then hold exactly the file", () => {
    const { disk, fd } = reopened('abc', 'xy');
    expect(() => disk.handleSync(fd)).not.toThrow();
    disk.handleClose(fd);
    disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('new.txt')).toBe('xy');
  });

  test("a torn-tail crash never brings back bytes a reopen with 'w' truncated", () => {
    const { disk, fd } = reopened('abcdef', 'xy');
    disk.handleClose(fd);
    disk.crash({ mode: 'torn-tail', tornKeepBytes: 1 });
    expect(disk.liveView().readFile('new.txt')).toBe('x');
  });
});

describe('torn-write: a file rewritten in place', () => {
  const rewrite = (mode: 'lose-unsynced' | 'torn-write', keep: number | undefined, size = 10): string | undefined => {
    const disk = fresh();
    const file = disk.openFile('a.txt', 'w', 0);
    disk.handleWrite(file.fd, text('n'.repeat(size)));
    disk.handleClose(file.fd);
    disk.crash({ mode, ...(keep !== undefined ? { tornKeepBytes: keep } : {}) });
    return disk.liveView().readFile('a.txt');
  };

  test('is left empty after a machine crash before its fsync (the zero-length file of truncate-and-write)', () => {
    expect(rewrite('torn-write', undefined)).toBe('');
    expect(rewrite('lose-unsynced', undefined)).toBe('original\n');
  });

  test('keeps only whole 4,096-byte blocks of its new bytes', () => {
    expect(rewrite('torn-write', 5000, 9000)).toBe('n'.repeat(4096));
    expect(rewrite('torn-write', 40, 9000)).toBe('');
  });

  test('appends tear as in torn-tail; an fsynced rewrite is not torn', () => {
    const disk = fresh();
    appendSynced(disk, 'a.txt', 'abcd', false);
    disk.crash({ mode: 'torn-write', tornKeepBytes: 2 });
    expect(disk.liveView().readFile('a.txt')).toBe('original\nab');
    const synced = fresh();
    const file = synced.openFile('a.txt', 'w', 0);
    synced.handleWrite(file.fd, text('new\n'));
    synced.handleSync(file.fd);
    synced.handleClose(file.fd);
    synced.crash({ mode: 'torn-write', tornKeepBytes: 0 });
    expect(synced.liveView().readFile('a.txt')).toBe('new\n');
  });
});

describe('names too long (Linux: NAME_MAX 255 bytes, PATH_MAX 4,096 bytes)', () => {
  const code = (run: () => unknown): string => {
    try {
      run();
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  };
  test('a name of 256 bytes is refused where the walk reaches it; 255 is fine; a missing folder before it is found first', () => {
    const disk = fresh();
    expect(code(() => disk.writeWhole('n'.repeat(255), text('x'), 'w', 0))).toBe('ok');
    expect(code(() => disk.writeWhole('n'.repeat(256), text('x'), 'w', 0))).toBe('ENAMETOOLONG');
    expect(code(() => disk.writeWhole('é'.repeat(128), text('x'), 'w', 0))).toBe('ENAMETOOLONG'); // 128 characters, 256 bytes
    expect(code(() => disk.writeWhole(`missing/${'n'.repeat(256)}`, text('x'), 'w', 0))).toBe('ENOENT');
    expect(code(() => disk.writeWhole(`${'n'.repeat(256)}/a`, text('x'), 'w', 0))).toBe('ENAMETOOLONG');
    expect(code(() => disk.mkdir(`q/${'n'.repeat(256)}`, true))).toBe('ENAMETOOLONG');
    expect(disk.liveView().readdir('.')).toContain('q'); // mkdir -p made the folder before the name too long
  });

  test('a path of 4,096 bytes or more is refused whatever its names', () => {
    const disk = fresh();
    const deep = `${'d/'.repeat(2100)}f`;
    expect(code(() => disk.readFile(deep))).toBe('ENAMETOOLONG');
    expect(code(() => disk.readFile(`${'d/'.repeat(1000)}f`))).toBe('ENOENT');
    try {
      disk.readFile(deep);
    } catch (error) {
      expect((error as Error).message.startsWith('ENAMETOOLONG: name too long, open \'/work/d/d/')).toBe(true);
    }
  });
});

describe("a volume handed on: the next disk of the thread gets the last run's volume, emptied", () => {
  /** What a disk shows of itself: files, their bytes and inode numbers (memfs numbers descriptors from one counter per thread, so they are not compared). */
  const portrait = (disk: Disk): unknown => {
    const file = disk.openFile('new.txt', 'w', 0);
    const shown = { files: disk.liveFilePaths().sort(), ino: ['a.txt', 'new.txt'].map((p) => disk.statOf(p).ino), a: disk.liveView().readFile('a.txt'), durable: disk.durableView().readFile('b.txt') };
    disk.handleClose(file.fd);
    return shown;
  };

  test('a disk built on a handed-on volume is the disk a new volume gives, whatever the last run left', () => {
    const first = fresh();
    appendSynced(first, 'left-over.txt', 'from the last run\n', true);
    writeThrough(first, 'a.txt', 'changed\n', 'w', true);
    first.openFile('a.txt', 'r', 0); // left open
    const before = spareVolumeCount();
    first.release();
    expect(spareVolumeCount()).toBe(Math.min(before + 1, 4));
    const handedOn = new Disk('/work', { 'a.txt': 'original\n', 'b.txt': 'b\n' });
    expect(spareVolumeCount()).toBe(Math.min(before + 1, 4) - 1);
    const shown = portrait(handedOn);
    while (spareVolumeCount() > 0) new Disk('/work', {}); // none left: the next disk builds a new volume
    expect(shown).toEqual(portrait(new Disk('/work', { 'a.txt': 'original\n', 'b.txt': 'b\n' })));
    expect(shown).toMatchObject({ files: ['a.txt', 'b.txt', 'new.txt'], a: 'original\n' });
  });

  test("a released disk refuses every use: a broken simulator invariant, never the next run's files", () => {
    const disk = fresh();
    disk.release();
    const next = new Disk('/work', { 'secret.txt': 'the next run\n' });
    expect(() => disk.readFile('secret.txt')).toThrow(SimulatorInvariantError);
    expect(() => disk.readFile('secret.txt')).toThrow('a disk was used after its run ended');
    expect(() => writeThrough(disk, 'a.txt', 'x', 'w', false)).toThrow(SimulatorInvariantError);
    expect(next.liveView().readFile('secret.txt')).toBe('the next run\n');
    expect(next.liveFilePaths()).toEqual(['secret.txt']);
  });
});
