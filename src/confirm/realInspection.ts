/**
 * The journal's inspect() in a confirmation (realRun.ts), with its own compiled instance: on the real
 * folder (what a process reads), or on the disk model's durable image when the workers are traced
 * (what would survive a machine crash). What it threw and what normalizing its records found are
 * kept in `errors` for the report, and it reads no records then.
 */
import type { DiskView, JournalAdapter } from '../../model/contract/contract.js';
import type { Records } from '../../model/evidence.js';
import { normalizeRecords } from '../../model/records.js';
import type { StoreCore } from '../../simulator/store/store.js';
import type { RealDisk } from './realDisk.js';

export interface RealInspection {
  /** The journal's records in the real folder (what a process reads), or on `on` (the model's durable image). */
  inspect: (on?: DiskView) => Records;
  /** The records that would survive a machine crash now: the model's durable image, traced; the real folder, untraced. */
  inspectDurable: () => Records;
  /** What inspect() threw, and the problems normalizing its records found. */
  errors: string[];
}

export function realInspection(journal: JournalAdapter, view: DiskView, realDisk: RealDisk | undefined, storeCore: StoreCore): RealInspection {
  const errors: string[] = [];
  const inspect = (on: DiskView = view): Records => {
    try {
      const { records, problems } = normalizeRecords(journal.inspect(on, storeCore.view()), journal.states);
      errors.push(...problems);
      return records;
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
      return {};
    }
  };
  const inspectDurable = (): Records => {
    if (!realDisk) return inspect();
    realDisk.catchUp();
    return inspect(realDisk.disk.durableView());
  };
  return { inspect, inspectDurable, errors };
}
