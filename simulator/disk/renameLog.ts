/**
 * Renames not yet durable, for the disk. A rename is one atomic change on a journaling file system
 * (ext4, XFS: one journal transaction; see "All File Systems Are Not Created Equal", OSDI '14, on
 * rename atomicity): when an fsync makes either folder's entries durable, the move is durable on
 * both sides — the name leaves the source folder and appears in the destination. Never both, never
 * neither.
 */
export interface PendingRename {
  child: number;
  fromDir: number;
  fromName: string;
  toDir: number;
  toName: string;
}

export class RenameLog {
  private pending: PendingRename[] = [];

  note(rename: PendingRename): void {
    if (rename.fromDir !== rename.toDir) this.pending.push(rename);
  }

  /**
   * Folder `dir`'s entries just became durable: every pending move into or out of it becomes durable
   * on its other side too. Returns whether another folder's durable entries changed.
   */
  settle(dir: number, durableEntries: Map<number, Map<string, number>>): boolean {
    let changed = false;
    const settled = this.pending.filter((r) => r.fromDir === dir || r.toDir === dir);
    if (settled.length === 0) return false;
    this.pending = this.pending.filter((r) => r.fromDir !== dir && r.toDir !== dir);
    for (const r of settled) {
      const from = durableEntries.get(r.fromDir);
      if (r.fromDir !== dir && from?.get(r.fromName) === r.child) {
        from.delete(r.fromName);
        changed = true;
      }
      const to = durableEntries.get(r.toDir);
      if (r.toDir !== dir && to !== undefined && to.get(r.toName) !== r.child) {
        to.set(r.toName, r.child);
        changed = true;
      }
    }
    return changed;
  }

  clear(): void {
    this.pending = [];
  }
}
