/** A crash's report names the durability step each lost path was missing, and explains it word for word. */
import { describe, expect, test } from 'vitest';
import { explainLoss, gapsOf } from './crashReport.js';
import { Disk } from './disk.js';
import { syncFolder, text, writeThrough } from './diskCalls.js';

const fresh = (): Disk => new Disk('/work', { 'a.txt': 'A\n' });
const rel = (p: string): string => p.replace('/work/', '');
const write = writeThrough;
const syncDir = syncFolder;

describe('what a crash lost, and the step that would have kept it', () => {
  test('a new file never fsynced: its own fsync was missing', () => {
    const disk = fresh();
    write(disk, 'new.txt', 'data\n', 'a', false);
    const report = disk.lossIfCrashedNow();
    expect(gapsOf(report, rel)).toEqual([{ path: 'new.txt', missing: 'file-fsync' }]);
    expect(explainLoss(report, rel)).toEqual(['new.txt: never fsynced, its entry vanished — fsync the file, then its folder']);
  });

  test('a new file fsynced whose folder was not: the folder fsync was missing', () => {
    const disk = fresh();
    write(disk, 'new.txt', 'data\n', 'a', true);
    const report = disk.crash({ mode: 'lose-unsynced' });
    expect(gapsOf(report, rel)).toEqual([{ path: 'new.txt', missing: 'folder-fsync' }]);
    expect(explainLoss(report, rel)).toEqual(['new.txt: fsynced, but its entry vanished — fsync the folder after creating or renaming into it']);
  });

  test('a temp file fsynced and renamed over the old one, with no folder fsync: the rename is lost, and the folder fsync was missing', () => {
    const disk = fresh();
    write(disk, 'tmp.txt', 'new\n', 'w', true);
    syncDir(disk); // the temp file's entry is durable; the rename below is not
    disk.rename('tmp.txt', 'a.txt');
    const report = disk.crash({ mode: 'lose-unsynced' });
    expect(disk.liveView().readFile('a.txt')).toBe('A\n');
    expect(gapsOf(report, rel)).toEqual([{ path: 'a.txt', missing: 'folder-fsync' }, { path: 'tmp.txt', missing: 'folder-fsync' }]);
    expect(explainLoss(report, rel)[0]).toBe('a.txt: fsynced and renamed into place, but the rename was lost (4 bytes not as written) — fsync the folder after the rename');
  });

  test('an append never fsynced: the file fsync was missing; one a failed fsync dropped: the failed fsync was trusted', () => {
    const unsynced = fresh();
    write(unsynced, 'a.txt', 'more\n', 'a', false);
    expect(gapsOf(unsynced.lossIfCrashedNow(), rel)).toEqual([{ path: 'a.txt', missing: 'file-fsync' }]);
    const failed = fresh();
    const file = failed.openFile('a.txt', 'a', 0);
    failed.handleWrite(file.fd, text('intent\n'));
    failed.faults.arm({ error: 'EIO' });
    expect(() => failed.handleSync(file.fd)).toThrow(/EIO/);
    failed.faults.disarm();
    failed.handleSync(file.fd); // the retry succeeds: Linux dropped the pages
    const report = failed.lossIfCrashedNow();
    expect(gapsOf(report, rel)).toEqual([{ path: 'a.txt', missing: 'failed-fsync' }]);
    expect(explainLoss(report, rel)).toEqual(['a.txt: 7 bytes lost that a failed fsync had dropped — a retried fsync succeeds without them: rewrite the file']);
  });

  test('a crash that loses nothing names no gap', () => {
    const disk = fresh();
    write(disk, 'a.txt', 'more\n', 'a', true);
    expect(disk.crash({ mode: 'lose-unsynced' }).gaps).toEqual([]);
    expect(disk.crash({ mode: 'keep-all' }).gaps).toEqual([]);
  });
});
