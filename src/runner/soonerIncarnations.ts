/**
 * A worker's faults of later incarnations moved one incarnation sooner, for the rewrites that take
 * away the fault that ended an incarnation — a crash, or an I/O error (a journal often dies of one)
 * — or turn it into one that ends none (a kill into a lost answer: simplifyScenario.ts): without
 * that, the worker's later faults wait for an incarnation that never starts.
 *
 * Offered as they were anchored, and then with the anchors of the next incarnation's faults on the
 * name the ended fault struck shifted past where it struck (by its occurrence, and one more): the
 * restarted incarnation's n-th call naming a key is, in the incarnation that now goes on, about n
 * calls after the one the fault struck — the restart's recovery made calls of its own, which the
 * incarnation that goes on does not.
 */
import { isStepFault, type Fault, type StepFault } from '../../simulator/scenario/scenario.js';

/** Whether a fault may end its worker's incarnation: a crash, or an I/O error. */
export const endsIncarnation = (f: Fault): f is Extract<Fault, { kind: 'crash' | 'io-error' }> => f.kind === 'crash' || f.kind === 'io-error';

/**
 * `faults` with the one at `index` (a fault that may end its incarnation) replaced by `replacement`
 * (none: dropped), and its worker's faults of later incarnations one incarnation sooner: as they
 * were anchored first, then shifted (above). Empty when the fault ends no incarnation or the worker
 * has no later fault.
 */
export function soonerIncarnations(faults: readonly Fault[], index: number, replacement?: Fault): Fault[][] {
  const ended = faults[index];
  if (ended === undefined || !endsIncarnation(ended)) return [];
  const later = (f: Fault): f is StepFault => isStepFault(f) && f.process === ended.process && f.incarnation > ended.incarnation;
  if (!faults.some(later)) return [];
  const struck = ended.at;
  const shifts = struck === undefined ? [0] : [...new Set([0, struck.occurrence, struck.occurrence + 1])];
  const moved = (f: StepFault, shift: number): Fault => {
    const next = f.incarnation === ended.incarnation + 1;
    const at = f.at !== undefined && shift > 0 && next && f.at.mentions === struck?.mentions ? { at: { ...f.at, occurrence: f.at.occurrence + shift } } : {};
    return { ...f, incarnation: f.incarnation - 1, ...at } as Fault;
  };
  const lists = shifts.map((shift) => faults.flatMap((f, k) => (k === index ? (replacement ? [replacement] : []) : later(f) ? [moved(f, shift)] : [f])));
  // A shift that moves no anchor (the later faults name something else) offers the unshifted list again: once is enough.
  return lists.filter((list, i) => lists.findIndex((other) => JSON.stringify(other) === JSON.stringify(list)) === i);
}
