/**
 * The task's temp files (task.temp, seed 002's cleanup): a registry of its own, an append-only
 * log beside the journal, and a cleanup step.
 *
 * - A temp file is registered — owner task, node, retention — durably *before* it is created, so
 *   a crash between the two leaves a registered file that may not exist, never an unregistered
 *   one that no cleanup would find. It is written durably (a long task resumes from it).
 * - Cleanup runs once the task is finished (every operation ended, none blocked or in doubt) or
 *   cancelled: it waits out the retention, unlinks what this task registered (an absent file is
 *   already gone: a repeat), fsyncs the folder, and only then records a cleanup receipt per file.
 *   It never lists the folder: other tasks keep their temp files there, and a name pattern
 *   cannot tell theirs from ours. A crash anywhere leaves files a repeat deletes; the journal's
 *   records are never touched.
 */
import { FINISHED_STATES, type PublishOperation } from '../../model/contract/contract.js';
import { hasCode, JsonlLog, syncDir } from './jsonlLog.js';
import { TaskGuardsRun } from './taskGuards.js';

export const TEMP_REGISTRY_FILE = 'journal.temp.jsonl';

/** A line of the registry: a temp file registered (with its owner, node and retention), or deleted (with the cleanup receipt). */
export interface TempRecord {
  /** The temp file, relative to the work folder. */
  key: string;
  state: 'registered' | 'deleted';
  owner?: string;
  node?: string;
  /** Kept at least until then (the clock's ms). */
  retainUntilMs?: number;
  /** deleted: what the cleanup saw and when. */
  receipt?: string;
}

export abstract class TempFilesRun extends TaskGuardsRun {
  protected readonly tempLog = new JsonlLog<TempRecord>(this.env, TEMP_REGISTRY_FILE);
  /** The registry as last recorded, per temp file. */
  protected readonly temps = new Map<string, TempRecord>();
  private tempLoaded = false;
  private tempDirDurable = false;

  /** Where this incarnation stages a node's file: a name of its own in the shared folder (task, node, worker and incarnation, as `file.<pid>.tmp` names go). */
  protected tempPathOf(node: string): string {
    return `${this.task.temp?.dir ?? '.'}/${this.task.id}.${node}.${this.env.pid}-${this.env.incarnation}.part`;
  }

  /** Reads the registry back (once per incarnation). */
  protected async loadTemps(): Promise<void> {
    if (this.tempLoaded) return;
    for (const record of await this.tempLog.open()) this.temps.set(record.key, record);
    this.tempLoaded = true;
  }

  protected async recordTemp(record: TempRecord): Promise<void> {
    await this.tempLog.append(record);
    this.temps.set(record.key, record);
  }

  /** Stages a publish's body as a temp file (the upload it sends): registered first, then written. */
  protected async stageTemp(op: PublishOperation, body: string): Promise<void> {
    const temp = this.task.temp;
    if (temp === undefined) return;
    await this.loadTemps();
    const path = this.tempPathOf(op.key);
    if (this.temps.get(path)?.state !== 'registered') {
      const retainUntilMs = (await this.env.clock.now()) + temp.retentionMs;
      await this.recordTemp({ key: path, state: 'registered', owner: this.task.id, node: op.key, retainUntilMs });
    }
    await this.writeTemp(temp.dir, path, body);
  }

  /** Writes a staged file durably (the folder in its parent, the file, its entry): a long task resumes from it after a crash. */
  protected async writeTemp(dir: string, path: string, body: string): Promise<void> {
    if (!this.tempDirDurable) {
      // The folder itself must be durable in its parent, or a machine crash takes it and all in it.
      await this.env.fs.mkdir(dir, { recursive: true });
      await syncDir(this.env, dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : this.env.dir);
      this.tempDirDurable = true;
    }
    const handle = await this.env.fs.open(path, 'w');
    await handle.writeFile(body);
    await handle.sync();
    await handle.close();
    await syncDir(this.env, dir);
  }

  /** Whether the task is over: every operation ended, none blocked or in doubt. */
  protected taskFinished(): boolean {
    return this.task.operations.every((op) => (FINISHED_STATES as readonly string[]).includes(this.last(op.key)?.state ?? ''));
  }

  /** After completion or a cancel: deletes this task's registered temp files, then records a receipt for each. */
  protected async cleanupTemps(): Promise<void> {
    const temp = this.task.temp;
    if (temp === undefined || !(this.cancelled || this.taskFinished())) return;
    await this.loadTemps();
    const due = [...this.temps.values()].filter((r) => r.state === 'registered');
    if (due.length === 0) return;
    const until = Math.max(...due.map((r) => r.retainUntilMs ?? 0));
    const now = await this.env.clock.now();
    if (until > now) await this.sleep(until - now);
    const seen: string[] = [];
    for (const record of due) seen.push(await this.deleteTemp(record.key));
    await this.syncTempDir(temp.dir);
    const at = await this.env.clock.now();
    for (const [i, record] of due.entries()) await this.recordTemp({ key: record.key, state: 'deleted', receipt: `${seen[i] ?? 'deleted'} at ${at}` });
  }

  /** Makes the deletions durable: an fsync of the folder (a folder that is gone holds nothing to delete). */
  protected async syncTempDir(dir: string): Promise<void> {
    try {
      await syncDir(this.env, dir);
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
  }

  /** Unlinks one temp file; an absent one was deleted by an earlier, interrupted cleanup (or never created). */
  protected async deleteTemp(path: string): Promise<string> {
    try {
      await this.env.fs.unlink(path);
      return 'deleted';
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
      return 'already gone';
    }
  }
}
