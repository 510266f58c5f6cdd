// h07 — the temp cleanup fsyncs the folder only for unlinks its own process still has pending.
// Place: the prototype of zlib's native handle (internalBinding('zlib') Zlib; the `_handle` of
// `zlib.createDeflateRaw()`, closed at once). Written after the last operation, during the temp-file cleanup:
// each unlink is entered in a table of unlinks awaiting the folder fsync (before the unlink; taken out again if it
// found nothing and was not pending before), and the table is cleared after the fsync. Read by the repeated
// cleanup after a crash between the unlinks and the temp folder's fsync: the folder is fsynced only if the table
// lists an unlink in it. Without the memory (a real crash) every unlink of the repeat finds ENOENT (the first
// run's unlinks are visible but not durable), nothing is pending, the fsync is skipped and the deleted receipts
// are recorded. The durable image (or a machine crash) brings the files back while the registry says deleted.
// Should break: convergence (a finished task leaves temp files behind).
import zlib from 'node:zlib';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const PENDING = Symbol.for('blind6.h07.pendingUnlinks');
export function memory() {
  const stream = zlib.createDeflateRaw();
  const proto = Object.getPrototypeOf(stream._handle);
  stream.close();
  if (!Object.hasOwn(proto, PENDING)) Object.defineProperty(proto, PENDING, { value: new Set() });
  return proto[PENDING];
}

class PendingUnlinks extends ReferenceRun {
  async deleteTemp(path) {
    const pending = memory();
    const was = pending.has(path);
    pending.add(path); // not durable until the folder is fsynced
    const seen = await super.deleteTemp(path);
    if (seen === 'already gone' && !was) pending.delete(path); // nothing of ours to make durable
    return seen;
  }

  async syncTempDir(dir) {
    const mine = [...memory()].filter((p) => p.startsWith(`${dir}/`));
    if (mine.length === 0) return; // no unlink of ours awaits the fsync
    await super.syncTempDir(dir);
    for (const p of mine) memory().delete(p);
  }
}

export default journalFrom('h07-pending-unlinks', (env, task) => new PendingUnlinks(env, task));
