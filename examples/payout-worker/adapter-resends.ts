/** durasim's way into the payout worker: run() calls it, inspect() reads its journal in durasim's words. */
import type { DiskView, JournalAdapter, JournalRecords, OperationState } from 'durasim';
import { JOURNAL, parseJournal, payAll } from './worker-resends.js';

const STATES: Record<string, OperationState> = { queued: 'authorized', sending: 'dispatched', unknown: 'outcome_unknown', waiting: 'outcome_unknown', checking: 'reconciling', paid: 'succeeded', rejected: 'failed', duplicate: 'conflict', paused: 'blocked', held: 'blocked' };

export default {
  name: 'payout-worker-resends',
  run: (env, task) => payAll(task.service.url, env.pid),
  inspect(disk: DiskView): JournalRecords {
    const records: JournalRecords = {};
    for (const entry of parseJournal(disk.readFile(JOURNAL) ?? '')) {
      const record = (records[entry.id] ??= { kind: 'operation', history: [] as OperationState[] }) as { kind: 'operation'; history: OperationState[]; receipt?: string };
      const state = STATES[entry.state];
      if (state !== undefined && record.history.at(-1) !== state) record.history.push(state);
      if (entry.payout !== undefined) record.receipt = entry.payout;
    }
    return records;
  },
} satisfies JournalAdapter;
