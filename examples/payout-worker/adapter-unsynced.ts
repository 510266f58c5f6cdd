/** durasim's way into the payout worker: run() calls it, inspect() reads its journal in its own words, states maps them onto durasim's. */
import type { DiskView, JournalAdapter, JournalRecords } from 'durasim';
import { JOURNAL, parseJournal, payAll } from './worker-unsynced.js';

export default {
  name: 'payout-worker-unsynced',
  run: (env, task) => payAll(task.service.url, env.pid),
  inspect(disk: DiskView): JournalRecords {
    const records: Record<string, { kind: 'operation'; history: string[]; receipt?: string }> = {};
    for (const entry of parseJournal(disk.readFile(JOURNAL) ?? '')) {
      const record = (records[entry.id] ??= { kind: 'operation', history: [] });
      if (record.history.at(-1) !== entry.state) record.history.push(entry.state);
      if (entry.payout !== undefined) record.receipt = entry.payout;
    }
    return records as JournalRecords;
  },
  states: {
    queued: 'authorized', sending: 'dispatched', unknown: 'outcome_unknown', waiting: { refines: 'outcome_unknown' }, checking: 'reconciling',
    paid: 'succeeded', rejected: 'failed', duplicate: 'conflict', paused: 'blocked', held: 'blocked',
  },
} satisfies JournalAdapter;
