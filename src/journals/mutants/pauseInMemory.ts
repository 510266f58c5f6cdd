/**
 * Mutant pause-in-memory — a 403 pauses the task in a variable of the running process: the refused
 * operation is recorded blocked, but not why, so the incarnation after a restart finds no pause
 * and goes on with the next operations. A revoked permission binds the task until an operator
 * resumes it. Should break: failure-class-respected.
 */
import type { Intent } from '../reference.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class PauseInMemory extends ReferenceRun {
  private pausedHere = false;

  protected override async pause(key: string, intent: Intent, reason: string): Promise<void> {
    this.pausedHere = true;
    await this.record({ key, state: 'blocked', digest: intent.digest, reason });
  }

  protected override paused(): boolean {
    return this.pausedHere;
  }
}

export const journal = journalFrom('pause-in-memory', (env, task) => new PauseInMemory(env, task));
