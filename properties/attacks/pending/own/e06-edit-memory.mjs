// Own attack (fifteenth session, on the three real restarts): memory kept where the restore does not reach, read only
// when a restarted process resumes an edit of the user's file that a crash interrupted. Remembering that it placed
// the candidate, it resumes as the reference does; not remembering, it delivers the edit again from the file as it
// now reads (the candidate already in place: the line appended twice). No restart crashes inside an edit.
import util from 'node:util';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

function place() { let got; util.debuglog('atk_edit', (fn) => { got = fn; })(''); return got; }

class EditMemory extends ReferenceRun {
  async place(op, candidate, baseDigest) {
    place()[`placed:${this.task.id}:${op.key}`] = true;
    return super.place(op, candidate, baseDigest);
  }

  async resumeEdit(op, last) {
    if (place()[`placed:${this.task.id}:${op.key}`] === true || last.state === 'conflict') return super.resumeEdit(op, last);
    return (await this.deliverEdit(op)) === 'applied';
  }
}

export default journalFrom('edit-memory', (env, task) => new EditMemory(env, task));
