/**
 * FileDeliveryRun: the reference journal's guarded file delivery (edit operations).
 *
 * Read and digest; move the current file aside (rename) and re-check it against the digest; write
 * and fsync the candidate under a temporary name and hard-link it into place (a link never
 * replaces a file, so a user's save made meanwhile is never clobbered); fsync the directory; then
 * record applied. A changed file → conflict with the user's text preserved in the log, the user's
 * version linked back, and the candidate rebuilt on the new base — at most editAttempts times.
 * A crash anywhere is resumed from the log and what the files show.
 */
import type { EditOperation, FileHandle } from '../../model/contract/contract.js';
import { digestOf } from '../../model/contract/digest.js';
import { JournalRun } from './journalRun.js';
import { hasCode, syncDir, type LogRecord } from './jsonlLog.js';

export abstract class FileDeliveryRun extends JournalRun {

  protected asidePath(op: EditOperation): string {
    return `${op.path}.aside-${op.key}`;
  }

  protected candidatePath(op: EditOperation): string {
    return `${op.path}.candidate-${op.key}`;
  }

  protected async edit(op: EditOperation): Promise<void> {
    const last = this.last(op.key);
    if (last?.state === 'applied') {
      await this.cleanUp(op);
      return;
    }
    if ((last?.state === 'read' || last?.state === 'conflict') && (await this.resumeEdit(op, last))) return;
    while (this.history(op.key).filter((r) => r.state === 'conflict').length < this.settings.editAttempts) {
      if ((await this.deliverEdit(op)) === 'applied') return;
    }
  }

  protected async deliverEdit(op: EditOperation): Promise<'applied' | 'conflict'> {
    const base = await this.readText(op.path);
    const baseText = base ?? '';
    const baseDigest = digestOf(baseText);
    const candidate = baseText + op.append;
    await this.record({ key: op.key, state: 'read', path: op.path, digest: baseDigest, candidateDigest: digestOf(candidate) });
    if (base !== undefined) {
      try {
        await this.env.fs.rename(op.path, this.asidePath(op));
      } catch (error) {
        if (!hasCode(error, 'ENOENT')) throw error;
      }
      const moved = await this.readText(this.asidePath(op));
      if (moved !== undefined && digestOf(moved) !== baseDigest) return this.conflict(op, moved, 'the file changed after it was read');
    }
    return this.place(op, candidate, baseDigest);
  }

  /**
   * Publishes the candidate without ever replacing a file: written and fsynced under a temporary
   * name, then hard-linked into place (EEXIST when the user saved meanwhile), then the directory
   * fsynced. A user's save made at any moment is either refused to us or lands after us.
   */
  protected async place(op: EditOperation, candidate: string, baseDigest: string): Promise<'applied' | 'conflict'> {
    const temp = this.candidatePath(op);
    const handle = await this.env.fs.open(temp, 'w');
    await handle.writeFile(candidate);
    await this.makeDurable(handle);
    await handle.close();
    try {
      await this.env.fs.link(temp, op.path);
    } catch (error) {
      if (!hasCode(error, 'EEXIST')) throw error;
      const theirs = (await this.readText(op.path)) ?? '';
      await this.record({ key: op.key, state: 'conflict', path: op.path, preserved: theirs, reason: 'the user saved a new version during delivery' });
      await this.cleanUp(op);
      return 'conflict';
    }
    await this.makeDurable();
    await this.record({ key: op.key, state: 'applied', path: op.path, digest: baseDigest, candidateDigest: digestOf(candidate) });
    await this.cleanUp(op);
    return 'applied';
  }

  /** fsync of the candidate (a handle), or of the directory that now links it into place (none). */
  protected async makeDurable(handle?: FileHandle): Promise<void> {
    if (handle) await handle.sync();
    else await syncDir(this.env);
  }

  /** Records the conflict (the user's text preserved first), then puts their version back. */
  protected async conflict(op: EditOperation, theirs: string, reason: string): Promise<'conflict'> {
    await this.record({ key: op.key, state: 'conflict', path: op.path, preserved: theirs, reason });
    await this.restoreAside(op);
    return 'conflict';
  }

  /** Links the moved-aside version back into place, unless the user saved a newer one meanwhile. */
  protected async restoreAside(op: EditOperation): Promise<void> {
    try {
      await this.env.fs.link(this.asidePath(op), op.path);
      await syncDir(this.env);
    } catch (error) {
      if (!hasCode(error, 'EEXIST') && !hasCode(error, 'ENOENT')) throw error; // EEXIST: their newer text stands
    }
    await this.cleanUp(op);
  }

  protected async cleanUp(op: EditOperation): Promise<void> {
    await this.removeIfPresent(this.asidePath(op));
    await this.removeIfPresent(this.candidatePath(op));
  }

  /**
   * A task that stops for good (cancelled, quarantined) is advanced no further, but a user's file
   * that an interrupted delivery moved aside goes back in place (nothing is deleted: the aside copy
   * stays for whoever looks).
   */
  protected async putFilesBack(): Promise<void> {
    for (const op of this.task.operations) {
      if (op.kind !== 'edit' || (await this.readText(op.path)) !== undefined) continue;
      try {
        await this.env.fs.link(this.asidePath(op), op.path);
        await syncDir(this.env);
      } catch (error) {
        if (!hasCode(error, 'ENOENT')) throw error; // nothing was moved aside
      }
    }
  }

  /** Finishes an edit a crash interrupted. Returns true when it is applied. */
  protected async resumeEdit(op: EditOperation, last: LogRecord): Promise<boolean> {
    if (last.state === 'conflict') {
      await this.restoreAside(op);
      return false;
    }
    const current = await this.readText(op.path);
    if (current !== undefined && digestOf(current) === last.candidateDigest) {
      // What the crashed incarnation linked may be visible only: make it durable before saying applied.
      await syncDir(this.env);
      await this.record({ key: op.key, state: 'applied', path: op.path, digest: last.digest, candidateDigest: last.candidateDigest });
      await this.cleanUp(op);
      return true;
    }
    const moved = await this.readText(this.asidePath(op));
    if (moved === undefined) {
      await this.cleanUp(op);
      return false; // nothing was moved: start over from a fresh read
    }
    if (digestOf(moved) !== last.digest) {
      await this.conflict(op, moved, 'the file changed after it was read');
      return false;
    }
    if (current === undefined) return (await this.place(op, moved + op.append, digestOf(moved))) === 'applied';
    await this.record({ key: op.key, state: 'conflict', path: op.path, preserved: current, reason: 'the user saved a new version during delivery' });
    await this.cleanUp(op);
    return false;
  }

}
