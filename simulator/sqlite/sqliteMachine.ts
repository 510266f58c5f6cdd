/**
 * What the simulated machine keeps for SQLite between processes, as Linux's kernel does for the
 * unix VFS: the lock table of each database file (SQLite's file locks: SHARED, RESERVED, PENDING,
 * EXCLUSIVE, as os_unix.c takes them with fcntl) and of each WAL index (the eight shm locks), and
 * the WAL index's shared memory itself (what os_unix.c maps from the `-shm` file).
 *
 * Rules:
 * - A lock belongs to one open file of one process; a process that dies (a kill, a machine crash)
 *   holds nothing from then on, as the kernel drops a dead process's fcntl locks.
 * - The shared memory outlives a process kill while another process has it mapped, and is zeroed
 *   when a process maps it while no live process does — os_unix.c's dead-man switch, which makes
 *   the first connection after a machine crash (or after every process closed) rebuild the WAL
 *   index from the WAL file. It is no file on the simulated disk: its bytes never need to be
 *   durable (SQLite never trusts them after a crash).
 * - A process sees the others' writes to the shared memory at every VFS call it makes (each
 *   process has its own copy in its WebAssembly memory, written back and read again there): only
 *   one process runs at a time in the simulated world, and a synchronous call runs to its end.
 */

/** SQLite's lock levels (sqlite3.h). */
export const LOCK = { NONE: 0, SHARED: 1, RESERVED: 2, PENDING: 3, EXCLUSIVE: 4 } as const;
/** xShmLock's flags. */
export const SHM = { UNLOCK: 1, LOCK: 2, SHARED: 4, EXCLUSIVE: 8 } as const;
/** The number of shm lock slots (SQLITE_SHM_NLOCK). */
export const SHM_NLOCK = 8;

/** Who holds a lock: one open file of one process. */
export interface LockOwner {
  /** Whether its process still runs. */
  alive(): boolean;
}

interface FileLocks {
  levels: Map<LockOwner, number>;
}

interface ShmState {
  regions: Uint8Array[];
  /** Open files that map it. */
  mappers: Set<LockOwner>;
  shared: Set<LockOwner>[];
  exclusive: (LockOwner | undefined)[];
}

export class SqliteMachine {
  private readonly files = new Map<string, FileLocks>();
  private readonly shms = new Map<string, ShmState>();

  private locksOf(path: string): FileLocks {
    let locks = this.files.get(path);
    if (locks === undefined) {
      locks = { levels: new Map() };
      this.files.set(path, locks);
    }
    for (const owner of [...locks.levels.keys()]) if (!owner.alive()) locks.levels.delete(owner);
    return locks;
  }

  /** The highest level another owner holds on `path`. */
  private othersMax(locks: FileLocks, owner: LockOwner, level?: number): { max: number; count: number } {
    let max: number = LOCK.NONE;
    let count = 0;
    for (const [other, held] of locks.levels) {
      if (other === owner) continue;
      max = Math.max(max, held);
      if (level === undefined || held >= level) count++;
    }
    return { max, count };
  }

  /** xLock: raises `owner`'s lock on `path` to `level` as os_unix.c does; false when busy (its level may have risen to PENDING). */
  lock(path: string, owner: LockOwner, level: number): boolean {
    const locks = this.locksOf(path);
    const held = locks.levels.get(owner) ?? LOCK.NONE;
    if (held >= level) return true;
    const others = this.othersMax(locks, owner);
    if (level === LOCK.SHARED) {
      if (others.max >= LOCK.PENDING) return false;
      locks.levels.set(owner, LOCK.SHARED);
      return true;
    }
    if (level === LOCK.RESERVED) {
      if (others.max >= LOCK.RESERVED) return false;
      locks.levels.set(owner, LOCK.RESERVED);
      return true;
    }
    // EXCLUSIVE (through PENDING): no other writer; then no other reader, else held at PENDING.
    if (held < LOCK.PENDING) {
      if (others.max >= LOCK.RESERVED) return false;
      locks.levels.set(owner, LOCK.PENDING);
    }
    if (others.max >= LOCK.SHARED) return false;
    locks.levels.set(owner, LOCK.EXCLUSIVE);
    return true;
  }

  /** xUnlock: lowers `owner`'s lock on `path` to `level` (SHARED or NONE). */
  unlock(path: string, owner: LockOwner, level: number): void {
    const locks = this.locksOf(path);
    const held = locks.levels.get(owner) ?? LOCK.NONE;
    if (held <= level) return;
    if (level === LOCK.NONE) locks.levels.delete(owner);
    else locks.levels.set(owner, level);
  }

  /** xCheckReservedLock: whether another owner holds RESERVED or above on `path`. */
  reservedByOther(path: string, owner: LockOwner): boolean {
    return this.othersMax(this.locksOf(path), owner).max >= LOCK.RESERVED;
  }

  /** The level `owner` holds on `path`. */
  levelOf(path: string, owner: LockOwner): number {
    return this.locksOf(path).levels.get(owner) ?? LOCK.NONE;
  }

  private shmOf(path: string): ShmState {
    let shm = this.shms.get(path);
    if (shm === undefined) {
      shm = { regions: [], mappers: new Set(), shared: Array.from({ length: SHM_NLOCK }, () => new Set()), exclusive: Array.from({ length: SHM_NLOCK }, () => undefined) };
      this.shms.set(path, shm);
    }
    for (const owner of [...shm.mappers]) if (!owner.alive()) shm.mappers.delete(owner);
    for (let slot = 0; slot < SHM_NLOCK; slot++) {
      for (const owner of [...(shm.shared[slot] as Set<LockOwner>)]) if (!owner.alive()) shm.shared[slot]?.delete(owner);
      if (shm.exclusive[slot] !== undefined && !(shm.exclusive[slot] as LockOwner).alive()) shm.exclusive[slot] = undefined;
    }
    return shm;
  }

  /**
   * The shared memory region `index` of `path`'s WAL index (size `size`), for `owner`: made when
   * `extend` is set (zeroed), else undefined when it does not exist. A first mapper while no live
   * process maps it zeroes every region (the dead-man switch).
   */
  region(path: string, owner: LockOwner, index: number, size: number, extend: boolean): Uint8Array | undefined {
    const shm = this.shmOf(path);
    if (!shm.mappers.has(owner)) {
      if (shm.mappers.size === 0) shm.regions = [];
      shm.mappers.add(owner);
    }
    while (shm.regions.length <= index) {
      if (!extend) return undefined;
      shm.regions.push(new Uint8Array(size));
    }
    return shm.regions[index];
  }

  /** xShmUnmap: `owner` maps it no more; `drop` (the last connection deleting it) forgets the memory. */
  unmap(path: string, owner: LockOwner, drop: boolean): void {
    const shm = this.shmOf(path);
    shm.mappers.delete(owner);
    for (let slot = 0; slot < SHM_NLOCK; slot++) {
      shm.shared[slot]?.delete(owner);
      if (shm.exclusive[slot] === owner) shm.exclusive[slot] = undefined;
    }
    if (drop && shm.mappers.size === 0) this.shms.delete(path);
  }

  /** xShmLock: slots [offset, offset + n) locked or unlocked, shared or exclusive; false when busy (nothing taken). */
  shmLock(path: string, owner: LockOwner, offset: number, n: number, flags: number): boolean {
    const shm = this.shmOf(path);
    const slots = Array.from({ length: n }, (_, i) => offset + i);
    if ((flags & SHM.UNLOCK) !== 0) {
      for (const slot of slots) {
        if ((flags & SHM.SHARED) !== 0) shm.shared[slot]?.delete(owner);
        else if (shm.exclusive[slot] === owner) shm.exclusive[slot] = undefined;
      }
      return true;
    }
    const busy = slots.some((slot) => {
      const exclusive = shm.exclusive[slot];
      if (exclusive !== undefined && exclusive !== owner) return true;
      if ((flags & SHM.EXCLUSIVE) !== 0) return [...(shm.shared[slot] as Set<LockOwner>)].some((other) => other !== owner);
      return false;
    });
    if (busy) return false;
    for (const slot of slots) {
      if ((flags & SHM.SHARED) !== 0) shm.shared[slot]?.add(owner);
      else shm.exclusive[slot] = owner;
    }
    return true;
  }
}

const machines = new WeakMap<object, SqliteMachine>();

/** The SQLite state of the simulated machine `world` (one per simulation). */
export function sqliteMachineOf(world: object): SqliteMachine {
  let machine = machines.get(world);
  if (machine === undefined) {
    machine = new SqliteMachine();
    machines.set(world, machine);
  }
  return machine;
}
