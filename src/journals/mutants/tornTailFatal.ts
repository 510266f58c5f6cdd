/**
 * Mutant torn-tail-fatal — recovery parses every line of the log strictly and throws on a partial
 * last line (a crash mid-append), so every restart dies the same way and the task never finishes.
 * Should break: convergence.
 */
import type { LogRecord } from '../jsonlLog.js';
import { hasCode } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class TornTailFatal extends ReferenceRun {
  protected override async loadRecords(): Promise<LogRecord[]> {
    let text = '';
    try {
      text = await this.env.fs.readFile('journal.jsonl', 'utf8');
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
    for (const line of text.split('\n')) if (line.trim() !== '') JSON.parse(line);
    return super.loadRecords();
  }
}

export const journal = journalFrom('torn-tail-fatal', (env, task) => new TornTailFatal(env, task));
