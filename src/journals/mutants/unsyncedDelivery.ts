/**
 * Mutant unsynced-delivery — the candidate is written and linked into place, but neither the
 * candidate's bytes nor the directory are fsynced before applied is recorded durably. After a
 * machine crash the record says applied while the file holds its old text. Should break: file-truth.
 */
import type { EditOperation } from '../../contract.js';
import { digestOf } from '../../digest.js';
import { hasCode } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class UnsyncedDelivery extends ReferenceRun {
  protected override async place(op: EditOperation, candidate: string, baseDigest: string): Promise<'applied' | 'conflict'> {
    const temp = this.candidatePath(op);
    const handle = await this.env.fs.open(temp, 'w');
    await handle.writeFile(candidate);
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
    await this.record({ key: op.key, state: 'applied', path: op.path, digest: baseDigest, candidateDigest: digestOf(candidate) });
    await this.cleanUp(op);
    return 'applied';
  }
}

export const journal = journalFrom('unsynced-delivery', (env, task) => new UnsyncedDelivery(env, task));
