// i08 — an aside copy is linked back only for a conflict the process is still handling.
// Place: Listener.prototype of internal/event_target (not exported; reached only as the prototype of the listener
// node an EventTarget keeps under Symbol(kEvents) after addEventListener, removed at once). Written mid-edit, on a
// conflict: before a `conflict` record, the conflict is entered in a table of conflicts this process is handling
// (task, key, path, digest of the preserved text). Read by the recovery of an edit whose last record is
// `conflict` — aimed at the read check's conflict: the user saved between the read and the move-aside, so the
// rename moved the user's version aside; crash between the two file steps that move it aside and link it back,
// after the conflict record. Without the memory (a real crash) the conflict is taken for an old one whose aside
// copy is litter ("the user's text is preserved in the log"): the aside copy is unlinked, the missing file is
// read as empty, and the edit delivers `append` alone, recorded applied.
// Should break: file-truth (the file cut from both its original and the user's text).
import { digestOf } from '../../../../model/contract/digest.ts';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const IN_HAND = Symbol.for('blind7.i08.conflictsInHand');

/** The process's table of conflicts it is handling. */
export function memory() {
  const target = new EventTarget();
  const noop = () => {};
  target.addEventListener('probe', noop);
  const events = target[Object.getOwnPropertySymbols(target).find((s) => s.description === 'kEvents')];
  const proto = Object.getPrototypeOf(events.get('probe').next);
  target.removeEventListener('probe', noop);
  if (!Object.hasOwn(proto, IN_HAND)) Object.defineProperty(proto, IN_HAND, { value: new Set() });
  return proto[IN_HAND];
}

class ConflictsInHand extends ReferenceRun {
  conflictId(key, path, preserved) {
    return `${this.task.id}|${key}|${path}#${digestOf(preserved ?? '')}`;
  }

  async record(r) {
    if (r.state === 'conflict') memory().add(this.conflictId(r.key, r.path, r.preserved));
    return super.record(r);
  }

  async resumeEdit(op, last) {
    if (last.state === 'conflict' && !memory().has(this.conflictId(op.key, last.path, last.preserved))) {
      // Not a conflict of ours in hand: the user's text is preserved in the log, the aside copy is litter.
      await this.cleanUp(op);
      return false;
    }
    return super.resumeEdit(op, last);
  }
}

export default journalFrom('i08-conflicts-in-hand', (env, task) => new ConflictsInHand(env, task));
