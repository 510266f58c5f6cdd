// h05 — whether a missing file was moved aside by us is answered from the process's table, not the disk.
// Place: the prototype of the native Hash handle (internalBinding('crypto'); the Symbol(kHandle) value of
// `crypto.createHash()`). Written mid-operation: just before an edit's `read` record (so before the file is
// renamed aside) the delivery is entered in a table of files moved aside by this process, keyed by path and base
// digest. Read by the recovery of an edit whose last record is `read` when the file is not in place (crash after
// the rename to .aside-*, before the candidate is linked). Without the memory (a real crash) the file is taken
// for deleted by the user ("we moved nothing"): the "leftovers" are cleaned up, which unlinks the aside copy
// (the user's only text), and the edit starts over on an empty file, so `append` alone is recorded applied.
// Should break: file-truth (the file left without its original text), no-silent-overwrite.
import { createHash } from 'node:crypto';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const MOVED = Symbol.for('blind6.h05.movedAside');
export function memory() {
  const hash = createHash('sha256');
  const handle = hash[Object.getOwnPropertySymbols(hash).find((s) => s.description === 'kHandle')];
  const proto = Object.getPrototypeOf(handle);
  if (!Object.hasOwn(proto, MOVED)) Object.defineProperty(proto, MOVED, { value: new Set() });
  return proto[MOVED];
}

class MovedAsideTable extends ReferenceRun {
  /** A delivery is entered in the table before its read is recorded, so before it moves the file aside. */
  async record(r) {
    if (r.state === 'read') memory().add(`${r.path}#${r.digest}`);
    return super.record(r);
  }

  async resumeEdit(op, last) {
    if (last.state === 'read' && !memory().has(`${op.path}#${last.digest}`) && (await this.readText(op.path)) === undefined) {
      // The file is gone and no delivery of ours moved it: the user deleted it. Drop our leftovers, start over.
      await this.cleanUp(op);
      return false;
    }
    return super.resumeEdit(op, last);
  }
}

export default journalFrom('h05-moved-aside-table', (env, task) => new MovedAsideTable(env, task));
