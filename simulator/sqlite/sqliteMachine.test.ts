/**
 * The simulated machine's SQLite lock tables, as os_unix.c takes its fcntl locks: readers share,
 * one writer reserves, a writer waiting for readers holds PENDING (no new reader gets in), the
 * commit needs EXCLUSIVE; the WAL index's eight locks; and a process that dies holds nothing.
 */
import { describe, expect, test } from 'vitest';
import { LOCK, SHM, SqliteMachine, type LockOwner } from './sqliteMachine.js';

const owner = (): LockOwner & { dead: boolean } => {
  const o = { dead: false, alive: () => !o.dead };
  return o;
};

describe('database file locks', () => {
  test('readers share; one writer reserves; EXCLUSIVE waits at PENDING for the readers, and keeps new readers out', () => {
    const m = new SqliteMachine();
    const [a, b, c] = [owner(), owner(), owner()];
    expect(m.lock('db', a, LOCK.SHARED)).toBe(true);
    expect(m.lock('db', b, LOCK.SHARED)).toBe(true);
    expect(m.lock('db', a, LOCK.RESERVED)).toBe(true);
    expect(m.lock('db', b, LOCK.RESERVED)).toBe(false);
    expect(m.reservedByOther('db', b)).toBe(true);
    expect(m.reservedByOther('db', a)).toBe(false);
    expect(m.lock('db', a, LOCK.EXCLUSIVE)).toBe(false);
    expect(m.levelOf('db', a)).toBe(LOCK.PENDING);
    expect(m.lock('db', c, LOCK.SHARED)).toBe(false);
    m.unlock('db', b, LOCK.NONE);
    expect(m.lock('db', a, LOCK.EXCLUSIVE)).toBe(true);
    m.unlock('db', a, LOCK.SHARED);
    expect(m.lock('db', c, LOCK.SHARED)).toBe(true);
  });

  test('a process that dies holds nothing: its RESERVED lock no longer keeps a writer out', () => {
    const m = new SqliteMachine();
    const [a, b] = [owner(), owner()];
    m.lock('db', a, LOCK.SHARED);
    m.lock('db', a, LOCK.RESERVED);
    m.lock('db', b, LOCK.SHARED);
    expect(m.lock('db', b, LOCK.RESERVED)).toBe(false);
    a.dead = true;
    expect(m.lock('db', b, LOCK.RESERVED)).toBe(true);
    expect(m.lock('db', b, LOCK.EXCLUSIVE)).toBe(true);
  });
});

describe('the WAL index', () => {
  test('its locks: shared with shared, exclusive alone; a dead holder releases them', () => {
    const m = new SqliteMachine();
    const [a, b] = [owner(), owner()];
    expect(m.shmLock('db', a, 3, 1, SHM.LOCK | SHM.SHARED)).toBe(true);
    expect(m.shmLock('db', b, 3, 1, SHM.LOCK | SHM.SHARED)).toBe(true);
    expect(m.shmLock('db', b, 0, 1, SHM.LOCK | SHM.EXCLUSIVE)).toBe(true);
    expect(m.shmLock('db', a, 0, 1, SHM.LOCK | SHM.EXCLUSIVE)).toBe(false);
    expect(m.shmLock('db', a, 3, 1, SHM.LOCK | SHM.EXCLUSIVE)).toBe(false);
    m.shmLock('db', b, 3, 1, SHM.UNLOCK | SHM.SHARED);
    expect(m.shmLock('db', a, 3, 1, SHM.LOCK | SHM.EXCLUSIVE)).toBe(true);
    b.dead = true;
    expect(m.shmLock('db', a, 0, 1, SHM.LOCK | SHM.EXCLUSIVE)).toBe(true);
  });

  test('its memory outlives a process kill while another maps it, and is zeroed for the first mapper after every mapper died', () => {
    const m = new SqliteMachine();
    const [a, b, c] = [owner(), owner(), owner()];
    (m.region('db', a, 0, 8, true) as Uint8Array).set([1, 2, 3]);
    expect([...(m.region('db', b, 0, 8, false) as Uint8Array).subarray(0, 3)]).toEqual([1, 2, 3]);
    a.dead = true;
    expect([...(m.region('db', b, 0, 8, false) as Uint8Array).subarray(0, 3)]).toEqual([1, 2, 3]);
    b.dead = true;
    expect(m.region('db', c, 0, 8, false)).toBeUndefined();
    expect([...(m.region('db', c, 0, 8, true) as Uint8Array).subarray(0, 3)]).toEqual([0, 0, 0]);
  });
});
