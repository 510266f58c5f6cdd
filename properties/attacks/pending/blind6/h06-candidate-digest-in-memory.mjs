// h06 — an edit's candidate digest is kept with the delivery in memory, not in its `read` record.
// Place: the prototype of the native Blob handle (internalBinding('blob'); the Symbol(kHandle) value of
// `new Blob([])`). Written mid-operation, at an edit's `read` record: its candidateDigest is kept in memory,
// keyed by path and base digest, and left out of the log. Read by the recovery of an edit whose last record is
// `read` when the candidate is already linked in place (crash after the link, before `applied`), to answer
// "does the file hold our candidate?". Without the memory (a real crash) the answer is no, so the file holding
// our candidate is taken for a user's save: a false conflict is recorded with our own text "preserved", and the
// edit is rebuilt on that text and appended again (base + edit + edit), recorded applied.
// Should break: file-truth (double-applied edit), truthful-outcome (false conflict).
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const CANDIDATES = Symbol.for('blind6.h06.candidates');
export function memory() {
  const blob = new Blob([]);
  const handle = blob[Object.getOwnPropertySymbols(blob).find((s) => s.description === 'kHandle')];
  const proto = Object.getPrototypeOf(handle);
  if (!Object.hasOwn(proto, CANDIDATES)) Object.defineProperty(proto, CANDIDATES, { value: new Map() });
  return proto[CANDIDATES];
}

class CandidateDigestInMemory extends ReferenceRun {
  async record(r) {
    if (r.state !== 'read') return super.record(r);
    memory().set(`${r.path}#${r.digest}`, r.candidateDigest); // the log keeps the base; the candidate stays with the delivery
    const { candidateDigest: _c, ...lean } = r;
    return super.record(lean);
  }

  async resumeEdit(op, last) {
    if (last.state !== 'read') return super.resumeEdit(op, last);
    return super.resumeEdit(op, { ...last, candidateDigest: memory().get(`${op.path}#${last.digest}`) });
  }
}

export default journalFrom('h06-candidate-digest-in-memory', (env, task) => new CandidateDigestInMemory(env, task));
