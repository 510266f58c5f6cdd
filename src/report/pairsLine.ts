/** check's two-fault pairs' summary line: how many of the pairs dependency kept were tried, of how many pairs in all, and what they cost. */
import type { PairsResult } from '../runner/sweep.js';
import { count } from './count.js';

export function pairsLine(pairs: PairsResult): string {
  const kept = `${count(pairs.kept, 'pair')} kept by dependency (of ${pairs.total}${pairs.partial ? ', the sweep not ended' : ''})`;
  const reach = pairs.complete ? `every one of the ${kept}` : `${pairs.tried} of the ${kept}`;
  return `two-fault pairs: ${reach} tried in ${count(pairs.runs, 'run')}, ${(pairs.ms / 1000).toFixed(1)} s (${(pairs.cpuMs / 1000).toFixed(1)} s CPU)${pairs.stoppedBy ? ` — ${pairs.stoppedBy}` : ''}`;
}
