/**
 * A scenario and its trace as readable numbered steps, with the violating steps marked: what
 * someone staring at a failing crash sequence reads first.
 */
import type { Violation } from '../../model/violation.js';
import type { EventPlacement, Scenario } from '../../simulator/scenario/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { explainLoss } from '../../simulator/disk/crashReport.js';
import { formatTraceEntry, rel } from '../../simulator/world/trace.js';
import { gapText, REPORT_ENTRIES_MAX, traceParts } from './traceParts.js';
import { pinnedEntries } from './pinnedEntries.js';
import { describeFolded, foldRepeats, violationLines } from './violationLines.js';

export function describeFault(fault: Scenario['faults'][number]): string {
  switch (fault.kind) {
    case 'crash': {
      const shape = [fault.mode, fault.tornKeepBytes !== undefined ? `keep ${fault.tornKeepBytes} B` : '', fault.tail !== undefined ? `${fault.tail} tail` : '', fault.keep ? `keep ${Object.entries(fault.keep).map(([p, n]) => `${n} of ${p}`).join(', ')}` : ''];
      return `crash worker-${fault.process}#${fault.incarnation} ${fault.when} its ${stepOf(fault)} (${shape.filter(Boolean).join(', ')})`;
    }
    case 'io-error':
      return `${fault.error} on worker-${fault.process}#${fault.incarnation}'s ${stepOf(fault)}${fault.writtenBytes !== undefined ? ` (a short write of ${fault.writtenBytes} B)` : ''}`;
    case 'response':
      return `${fault.at ? `request #${fault.at.occurrence} about ${fault.at.mentions}` : `request #${fault.request}`}: ${fault.fault}${fault.delayMs !== undefined ? ` ${fault.delayMs} ms` : ''}${fault.commitDelayMs !== undefined ? ` (commit after ${fault.commitDelayMs} ms)` : ''}${fault.retryAfterMs !== undefined ? ` (retry after ${fault.retryAfterMs} ms)` : ''}`;
    case 'user-edit':
      return `user saves ${fault.path} ${fault.atStep !== undefined ? `before global step ${fault.atStep}` : `after the worker's access #${fault.afterAccess} to it`}: ${JSON.stringify(fault.text)}`;
    case 'duplicate-delivery':
      return `duplicate delivery ${whenOf(fault)}`;
    case 'concurrent-call':
      return `a second call of the task in worker-${fault.process}'s running process ${whenOf(fault)}`;
    case 'service-restart':
      return `service restart ${whenOf(fault)}`;
    case 'store-restart':
      return `store restart ${whenOf(fault)}`;
    case 'input-change':
      return `the service's resource ${fault.resource} changes to ${JSON.stringify(fault.value)} ${whenOf(fault)}`;
    case 'cancel':
      return `the user cancels the task ${whenOf(fault)}${fault.reason ? `: ${fault.reason}` : ''}`;
    case 'store-edit':
      return `someone ${fault.value === null ? `deletes ${fault.key} from` : `writes ${JSON.stringify(fault.value)} to ${fault.key} in`} the store ${whenOf(fault)}`;
    case 'store-call':
      return `${fault.at ? `store call #${fault.at.occurrence} that mentions ${fault.at.mentions}` : `store call #${fault.call}`}: ${fault.fault}`;
    case 'takeover':
      return `the operator takes the task over ${whenOf(fault)}, for ${fault.holdMs} ms`;
    case 'pause':
      return `worker-${fault.process}#${fault.incarnation} freezes for ${fault.pauseMs} ms at its ${fault.at?.when === 'after' ? `next call after its ${stepOf(fault)}` : stepOf(fault)}`;
  }
}

/** When an event lands: before a global step, or around the n-th worker step that mentions its anchor. */
function whenOf(fault: EventPlacement): string {
  return fault.at ? `${fault.at.when ?? 'before'} worker step #${fault.at.occurrence} that mentions ${fault.at.mentions}` : `before global step ${fault.atStep}`;
}

function stepOf(fault: { at?: { occurrence: number; mentions: string }; step?: number }): string {
  return fault.at ? `call #${fault.at.occurrence} that mentions ${fault.at.mentions}` : `step ${fault.step}`;
}

export function describeScenario(scenario: Scenario): string[] {
  const lines = [
    `task ${scenario.task.id}: ${scenario.task.operations.map((op) => `${op.kind} ${op.key}`).join(', ')}`,
    `service: idempotency memory ${scenario.service.idempotencyMemory}, query ${scenario.service.query ? 'offered' : 'not offered'}${scenario.service.existing.length > 0 ? `, existing effects for ${scenario.service.existing.map((e) => e.key).join(', ')}` : ''}`,
  ];
  if (scenario.taskAfterRestart) lines.push(`after a restart the task changes: ${scenario.taskAfterRestart.operations.map((op) => (op.kind === 'publish' ? `${op.key} body ${JSON.stringify(op.body)}` : op.key)).join(', ')}`);
  lines.push(scenario.faults.length === 0 ? 'faults: none' : `faults:\n${scenario.faults.map((f) => `  - ${describeFault(f)}`).join('\n')}`);
  return lines;
}

/**
 * The numbered trace; lines at a violating step are marked with ">>" and the violations named; under
 * each machine crash's disk line, what it lost and the durability step that would have kept it. A
 * long trace shows its start, end and landmarks (traceParts.ts), and every entry its violations
 * stand on (pinnedEntries.ts); repeated violations are folded.
 */
export function explainText(result: SimulationResult, violations: readonly Violation[]): string {
  const marks = new Map<number, Violation[]>();
  for (const v of violations) marks.set(v.step, [...(marks.get(v.step) ?? []), v]);
  const lines = [...describeScenario(result.scenario), '', `outcome: ${result.outcome.kind}${result.outcome.kind === 'completed' ? '' : ` (${result.outcome.detail})`}`, ''];
  const machineCrashes = result.crashes.filter((c) => c.fault.mode !== 'keep-all');
  // The n-th machine crash's disk line goes with the n-th machine crash, counted over the whole trace.
  const crashOfDiskLine = new Map<number, (typeof machineCrashes)[number]>();
  let diskLines = 0;
  for (const entry of result.trace) if (entry.actor === 'disk' && entry.op === 'crash') crashOfDiskLine.set(entry.seq, machineCrashes[diskLines++] as (typeof machineCrashes)[number]);
  for (const part of traceParts(result.trace, violations, REPORT_ENTRIES_MAX, pinnedEntries(result, violations))) {
    if (part.kind === 'gap') {
      lines.push(`   ${gapText(part)}`);
      continue;
    }
    for (const entry of part.entries) {
      const here = marks.get(entry.seq);
      lines.push(`${here ? '>>' : '  '} ${formatTraceEntry(entry)}`);
      const crash = crashOfDiskLine.get(entry.seq);
      for (const why of crash === undefined ? [] : explainLoss(crash.disk, rel)) lines.push(`   ·· ${why}`);
      for (const v of foldRepeats(here ?? [])) lines.push(`   ^^ ${describeFolded(v)}`);
    }
  }
  lines.push('', violations.length === 0 ? 'verdict: no violation' : `verdict: ${violations.length} violation(s)`);
  for (const line of violationLines(violations)) lines.push(`  - ${line}`);
  return lines.join('\n');
}
