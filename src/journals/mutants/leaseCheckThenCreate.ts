/**
 * Mutant lease-check-then-create — the task lease is taken by looking for the lock file and, when
 * there is none, putting one in place (written whole and fsynced under a name of its own, then
 * renamed over the lock, its folder fsynced — as the reference writes it, but a rename replaces
 * where the reference's hard link refuses): a duplicate delivery whose worker looks in the window
 * between the first worker's look and its rename takes the lease too, and both run the task. The
 * race is the only defect. Should break: single-flight (two owners of one key at the service).
 */
import { hasCode, LEASE_FILE, pollDelayMs, syncDir } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class LeaseCheckThenCreate extends ReferenceRun {
  protected override async acquireLease(): Promise<boolean> {
    for (let attempt = 0; attempt < this.settings.leaseAttempts; attempt++) {
      let owner: number | undefined;
      try {
        owner = (JSON.parse(await this.env.fs.readFile(LEASE_FILE, 'utf8')) as { pid?: number }).pid;
      } catch (error) {
        if (!hasCode(error, 'ENOENT')) throw error;
      }
      if (owner === undefined || owner === this.env.pid) {
        const mine = `${LEASE_FILE}.${this.env.pid}`;
        const handle = await this.env.fs.open(mine, 'w');
        await handle.writeFile(JSON.stringify({ pid: this.env.pid }));
        await handle.sync();
        await handle.close();
        await this.env.fs.rename(mine, LEASE_FILE); // replaces a lease taken meanwhile: not exclusive
        await syncDir(this.env);
        return true;
      }
      await this.sleep(pollDelayMs(this.settings.leasePollMs, attempt));
    }
    return false;
  }
}

export const journal = journalFrom('lease-check-then-create', (env, task) => new LeaseCheckThenCreate(env, task));
