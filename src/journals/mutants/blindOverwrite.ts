/**
 * Mutant blind-overwrite — the candidate is renamed over the file without re-checking that the
 * file still holds the content it was built from. Should break: no-silent-overwrite.
 */
import type { EditOperation } from '../../../model/contract/contract.js';
import { digestOf } from '../../../model/contract/digest.js';
import { syncDir } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class BlindOverwrite extends ReferenceRun {
  protected override async deliverEdit(op: EditOperation): Promise<'applied' | 'conflict'> {
    const baseText = (await this.readText(op.path)) ?? '';
    const candidate = baseText + op.append;
    await this.record({ key: op.key, state: 'read', path: op.path, digest: digestOf(baseText), candidateDigest: digestOf(candidate) });
    const handle = await this.env.fs.open(this.candidatePath(op), 'w');
    await handle.writeFile(candidate);
    await handle.sync();
    await handle.close();
    await this.env.fs.rename(this.candidatePath(op), op.path);
    await syncDir(this.env);
    await this.record({ key: op.key, state: 'applied', path: op.path, digest: digestOf(baseText), candidateDigest: digestOf(candidate) });
    return 'applied';
  }
}

export const journal = journalFrom('blind-overwrite', (env, task) => new BlindOverwrite(env, task));
