/**
 * Mutant zero-tail-reset — recovery tells a torn append (a prefix of a JSON line) from corruption
 * (zero bytes, or bytes that are not text), and on corruption starts the log over, as many
 * programs reinitialise a state file they cannot read. A machine crash can leave exactly that: the
 * file's size reached the disk but its last data did not, so it ends in zeros (or stale blocks).
 * Records are lost; the next incarnation redoes what they recorded. Should break: no-state-skip
 * (a record deleted before a terminal state), completed-replayed.
 */
import { hasCode, LOG_FILE, type LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class ZeroTailReset extends ReferenceRun {
  protected override async loadRecords(): Promise<LogRecord[]> {
    let text = '';
    try {
      text = await this.env.fs.readFile(LOG_FILE, 'utf8');
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
    // Corrupt, not torn: start over with an empty log.
    if (/[\0\uFFFD]/.test(text)) await this.env.fs.writeFile(LOG_FILE, '');
    return super.loadRecords();
  }
}

export const journal = journalFrom('zero-tail-reset', (env, task) => new ZeroTailReset(env, task));
