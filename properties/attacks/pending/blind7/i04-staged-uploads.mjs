// i04 — a temp registration the process did not stage itself is retired as "never created", without an unlink.
// Place: the prototype of the native BrotliDecoder handle (internalBinding('zlib'); the `_handle` of
// `zlib.createBrotliDecompress()`, closed at once). Written early in a publish: before a staged upload is
// registered in the temp registry, its path is entered in a table of uploads this process staged. Read by
// stageTemp of a publish with no log record yet when the registry already holds a registration of this task and
// node under another incarnation's name — aimed at post-a, the first operation: crash after its staged body was
// written to tmp/ (registered, created), before its `authorized` record. Without the memory (a real crash) the
// registration is taken for one whose process died between registering and creating ("registered before
// created"): it is marked deleted with the receipt "never created", and the file stays in the shared folder.
// Should break: convergence (a finished task leaves a temp file behind).
import zlib from 'node:zlib';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const STAGED = Symbol.for('blind7.i04.stagedUploads');

/** The process's table of uploads it staged (paths in the temp folder). */
export function memory() {
  const stream = zlib.createBrotliDecompress();
  const proto = Object.getPrototypeOf(stream._handle);
  stream.close();
  if (!Object.hasOwn(proto, STAGED)) Object.defineProperty(proto, STAGED, { value: new Set() });
  return proto[STAGED];
}

class StagedUploads extends ReferenceRun {
  async stageTemp(op, body) {
    if (this.task.temp !== undefined) {
      await this.loadTemps();
      const path = this.tempPathOf(op.key);
      for (const r of [...this.temps.values()]) {
        if (r.state !== 'registered' || r.owner !== this.task.id || r.node !== op.key || r.key === path) continue;
        if (memory().has(r.key)) continue; // staged here: it waits for the cleanup
        // Registered before created: a stage nobody here made was cut off before its file existed.
        await this.recordTemp({ key: r.key, state: 'deleted', receipt: 'never created' });
      }
      memory().add(path);
    }
    return super.stageTemp(op, body);
  }
}

export default journalFrom('i04-staged-uploads', (env, task) => new StagedUploads(env, task));
