/**
 * Mutant ignores-takeover — when its lease renewal is refused because someone other than a worker
 * holds the lease, it takes the lease back by force and carries on: an operator who took the task
 * over finds the agent still working under them. Should break: takeover-exclusive.
 */
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class IgnoresTakeover extends CoordinatedRun {
  protected override async renew(): Promise<void> {
    const renewed = await this.env.store.lease.renew(this.task.id, { token: this.token, ttlMs: 10_000 });
    if (renewed.ok) return;
    if (renewed.lease && !renewed.lease.holder.startsWith('worker-')) {
      await this.env.store.lease.release(this.task.id, { force: true, reason: 'the agent needs the task back' });
      const taken = await this.env.store.lease.acquire(this.task.id, { holder: `worker-${this.env.pid}`, ttlMs: 10_000 });
      if (taken.ok) {
        this.token = taken.lease.token;
        return;
      }
    }
    return super.renew();
  }
}

export const journal = coordinatedJournalFrom('ignores-takeover', (env, task) => new IgnoresTakeover(env, task));
