/**
 * Mutant lease-by-own-clock — judges its lease by its own clock against the expiry the store
 * granted, instead of renewing it with the store, and takes its event slots by compare-and-set
 * alone. After a pause, or with the store's clock running ahead, it advances the task while its
 * lease is gone or another worker's; with the store's clock behind, it believes every lease it is
 * granted has already run out and never advances. Should break: single-advancer (takeover-exclusive under an operator), convergence.
 */
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class LeaseByOwnClock extends CoordinatedRun {
  protected override async renew(): Promise<void> {
    if ((await this.env.clock.now()) >= this.leaseExpiresAtMs) throw new Error('the lease ran out by this worker\'s clock; a new incarnation takes it again');
  }

  protected override slotCondition(): { ifAbsent: true } {
    return { ifAbsent: true };
  }
}

export const journal = coordinatedJournalFrom('lease-by-own-clock', (env, task) => new LeaseByOwnClock(env, task));
