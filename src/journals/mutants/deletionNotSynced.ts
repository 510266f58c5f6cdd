/**
 * Mutant deletion-not-synced — the cleanup records its receipts right after the unlinks, without
 * an fsync of the folder: a machine crash then brings the deleted files back while the registry
 * says they are gone, and no later cleanup looks at them again. Should break: convergence (a
 * finished task leaves temp files behind).
 */
import { journalFrom, ReferenceRun } from '../reference.js';

class DeletionNotSynced extends ReferenceRun {
  protected override async syncTempDir(): Promise<void> {}
}

export const journal = journalFrom('deletion-not-synced', (env, task) => new DeletionNotSynced(env, task));
