/** Heap after many scenarios against after a few: abandoned incarnations (killed workers' pending promises) must not leak. */
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import fc from 'fast-check';
import { referenceJournal } from '../journals/reference.js';
import { standardWorkload } from './workload.js';

const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

function heapMb(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

export async function heapGrowth(early: number, late: number, seed: number): Promise<{ early: number; late: number; earlyHeapMb: number; lateHeapMb: number; gcExposed: boolean }> {
  let done = 0;
  let round = 0;
  let earlyHeapMb = 0;
  while (done < late) {
    for (const scenario of fc.sample(standardWorkload, { numRuns: 500, seed: seed + round++ })) {
      judge(await simulate(referenceJournal, scenario));
      done++;
      if (done === early) earlyHeapMb = heapMb();
      if (done >= late) break;
    }
  }
  return { early, late, earlyHeapMb, lateHeapMb: heapMb(), gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function' };
}
