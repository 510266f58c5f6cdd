/**
 * ScenarioEvents: a scenario's faults as the run meets them. Crashes are looked up by
 * (worker, incarnation, step, when); the first fault listed for a point wins. The timed faults —
 * user edits, duplicate deliveries, service restarts — come in the order they come due. atStep faults come due at a global step; afterAccess user
 * edits come due after the workers' n-th step on their path (counted from the trace details).
 * Whatever never came due is handed out, in order, once every worker has finished.
 */
import type { CrashFault, Fault, UserEditFault } from './scenario.js';

export class ScenarioEvents {
  private readonly timed: Fault[];
  private readonly anchored: UserEditFault[];
  private readonly accesses = new Map<string, number>();
  private readonly crashes = new Map<string, CrashFault>();

  constructor(faults: readonly Fault[]) {
    for (const fault of faults) {
      const key = fault.kind === 'crash' ? `${fault.process}/${fault.incarnation}/${fault.step}/${fault.when}` : undefined;
      if (fault.kind === 'crash' && key !== undefined && !this.crashes.has(key)) this.crashes.set(key, fault);
    }
    this.anchored = faults.filter((f): f is UserEditFault => f.kind === 'user-edit' && f.afterAccess !== undefined);
    this.timed = faults
      .filter((f) => (f.kind === 'user-edit' && f.atStep !== undefined) || f.kind === 'duplicate-delivery' || f.kind === 'service-restart')
      .map((f, i) => ({ f, i }))
      .sort((a, b) => stepOf(a.f) - stepOf(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }

  crashAt(pid: number, incarnation: number, step: number, when: 'before' | 'after'): CrashFault | undefined {
    return this.crashes.size === 0 ? undefined : this.crashes.get(`${pid}/${incarnation}/${step}/${when}`);
  }

  /** Counts a worker step on each path it names (the anchors of afterAccess user edits). */
  countAccess(op: string, detail: string): void {
    if (this.anchored.length === 0 || (!op.startsWith('fs.') && !op.startsWith('fh.'))) return;
    const [first, arrow, second] = detail.split(' ');
    for (const path of arrow === '→' && second !== undefined ? [first, second] : [first]) {
      if (path !== undefined) this.accesses.set(path, (this.accesses.get(path) ?? 0) + 1);
    }
  }

  /** The next fault due before global step `globalStep`, if any. */
  nextDue(globalStep: number): Fault | undefined {
    const anchored = this.anchored.findIndex((edit) => (this.accesses.get(edit.path) ?? 0) > (edit.afterAccess ?? 0));
    if (anchored !== -1) return this.anchored.splice(anchored, 1)[0];
    const first = this.timed[0];
    return first !== undefined && stepOf(first) <= globalStep ? this.timed.shift() : undefined;
  }

  /** The next fault that never came due, once nothing else is left to happen. */
  nextLeftOver(): Fault | undefined {
    return this.timed.shift() ?? this.anchored.shift();
  }
}

function stepOf(fault: Fault): number {
  return 'atStep' in fault && fault.atStep !== undefined ? fault.atStep : 0;
}
