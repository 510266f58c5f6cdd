/**
 * Mutant no-fencing-token — holds the task's lease but sends its POSTs without the lease's fencing
 * token, so the service cannot refuse it once it has paused past its lease. Should break:
 * fenced-effects.
 */
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class NoFencingToken extends CoordinatedRun {
  protected override fencing(): Record<string, string> {
    return {};
  }
}

export const journal = coordinatedJournalFrom('no-fencing-token', (env, task) => new NoFencingToken(env, task));
