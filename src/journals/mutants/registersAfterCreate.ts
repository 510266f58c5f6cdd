/**
 * Mutant registers-after-create — a temp file is created first and registered after: a crash in
 * between leaves a file no registry names, which the cleanup (rightly deleting only registered
 * files) never finds. Should break: convergence (a finished task leaves a temp file behind).
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class RegistersAfterCreate extends ReferenceRun {
  protected override async stageTemp(op: PublishOperation, body: string): Promise<void> {
    const temp = this.task.temp;
    if (temp === undefined) return;
    await this.loadTemps();
    const path = this.tempPathOf(op.key);
    await this.writeTemp(temp.dir, path, body);
    if (this.temps.get(path)?.state !== 'registered') {
      const retainUntilMs = (await this.env.clock.now()) + temp.retentionMs;
      await this.recordTemp({ key: path, state: 'registered', owner: this.task.id, node: op.key, retainUntilMs });
    }
  }
}

export const journal = journalFrom('registers-after-create', (env, task) => new RegistersAfterCreate(env, task));
