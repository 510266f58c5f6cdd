/**
 * timeline.html: a self-contained page (no script, no network) showing a run as swimlanes — one
 * per worker incarnation, plus the service, the disk, the user and the supervisor — with a legend,
 * crash and fault markers, the violating steps highlighted and linked to their cause and to the
 * scenario fault that set them off, the journal's files visible and durable in the disk lane, and
 * at each crash what the disk kept and lost. Rows: timelineRows.ts.
 */
import { count } from './count.js';
import type { Violation } from '../../model/violation.js';
import { historyWords } from '../../model/stateWords.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { describeLoss } from '../../simulator/disk/crashReport.js';
import { describeScenario } from './explain.js';
import { diskAt, diskStateHtml, escapeHtml, timelineRows } from './timelineRows.js';
import { gapText, REPORT_ENTRIES_MAX, traceParts } from './traceParts.js';
import { pinnedEntries, triggerOf } from './pinnedEntries.js';
import { causeGroups, describeFolded } from './violationLines.js';

export { triggerOf };

const LEGEND: [string, string][] = [
  ['event crash', 'crash: processes killed (a machine crash also drops what was not durable)'],
  ['event fault', 'fault from the scenario: a mangled or lost response, a service restart, a duplicate delivery'],
  ['event user-edit', 'the user saves a file'],
  ['event commit', 'the service commits an effect'],
  ['event escape', 'the journal reached outside the simulated world'],
  ['event violation', 'an invariant fails here'],
  ['event pinned', 'kept in view: a step a violation stands on (its key\'s record or effect, a lock or lease it depends on, the fault that set it off)'],
  ['file synced', 'disk lane: a file whose bytes are all durable'],
  ['file unsynced', 'disk lane: visible to processes, not (all) durable: a machine crash would lose it'],
];

/**
 * What set a violation off, as the trace and a replay show it: the last scenario fault before it
 * (naming its key if one does); with none before it, what the replay with the scenario's faults
 * removed says (`faultFree`: the invariants that replay broke) — never a claim no replay made.
 */
export function setOffBy(violation: Violation, trigger: TraceEntry | undefined, faults: number, faultFree: readonly string[] | undefined): { text: string; seq?: number } {
  if (trigger) return { text: `#${trigger.seq} ${trigger.op} ${trigger.detail}`, seq: trigger.seq };
  if (faults === 0) return { text: 'no fault: the scenario has none' };
  if (faultFree === undefined) return { text: `no fault before #${violation.step}` };
  return faultFree.includes(violation.code)
    ? { text: `no fault: with the scenario's faults removed, a replay breaks ${violation.code} too` }
    : { text: `no fault before #${violation.step}, yet with the scenario's faults removed a replay keeps ${violation.code}: the faults count, from where the trace does not mark them` };
}

export function timelineHtml(result: SimulationResult, violations: readonly Violation[], title: string, faultFree?: readonly string[]): string {
  const triggers = new Map(violations.map((v) => [v, triggerOf(result.trace, v)]));
  // What the violations stand on is never folded away, in a long run's gaps or in a lane's folded rows.
  const pinned = pinnedEntries(result, violations);
  const linked = new Set<number>([...violations.map((v) => v.step), ...[...triggers.values()].flatMap((e) => (e ? [e.seq] : [])), ...pinned]);
  // A long run shows its start, end and landmarks; a row in the supervisor's lane says what was left out.
  const parts = traceParts(result.trace, violations, REPORT_ENTRIES_MAX, pinned);
  const gaps = parts.flatMap((p) => (p.kind === 'gap' ? [p] : []));
  const shown = gaps.length === 0 ? result : { ...result, trace: parts.flatMap((p): TraceEntry[] => (p.kind === 'entries' ? p.entries : [{ seq: p.from, timeMs: (result.trace[p.from] as TraceEntry).timeMs, actor: 'supervisor', op: 'not shown', detail: gapText(p) }])) };
  const table = timelineRows(shown, violations, linked, pinned);
  const link = (seq: number, text: string): string => `<a href="#seq-${seq}">${escapeHtml(text)}</a>`;
  // Repeats of one invariant on one key fold into one item: the first linked, the count, the last linked.
  const items = causeGroups(violations).flatMap((group) => [group.root, ...group.derived].map((folded) => {
    const v = folded.violation;
    const cause = folded === group.root ? undefined : group.root.violation;
    const trigger = triggers.get(v);
    const disk = diskAt(result.diskLane, v.step);
    const last = folded.more > 0 ? ` · the last of ${folded.more + 1}: ${link(folded.lastStep, `#${folded.lastStep}`)}` : '';
    const off = setOffBy(v, trigger, result.scenario.faults.length, faultFree);
    const offText = off.seq !== undefined ? `set off by: ${link(off.seq, off.text)}` : `set off by ${escapeHtml(off.text)}`;
    return `<li><span class="what">${link(v.step, describeFolded(folded))}</span>
<div class="links">${cause ? `follows from: ${link(cause.step, `${cause.code} at #${cause.step}`)} · ` : ''}${offText}${last}</div>${disk ? `<div class="disk-then">the disk at #${v.step}: ${diskStateHtml(disk.files)}</div>` : ''}</li>`;
  }));
  const crashes = result.crashes.map((c, i) => {
    const lost = describeLoss(c.disk);
    // In the journal's own words when it has them, the model's in brackets (model/stateWords.ts).
    const kept = Object.entries(c.records).map(([key, r]) => `${key}: ${historyWords(r, ' → ') || '(nothing)'}`);
    return `<section class="crash-report" id="crash-${i + 1}"><h3>Crash ${i + 1} at ${link(c.seq, `#${c.seq}`)} (${escapeHtml(c.fault.mode)}; killed ${escapeHtml(c.killed.join(', '))})</h3>
<div class="kept"><h4>Disk kept (durable records)</h4><ul>${kept.map((k) => `<li>${escapeHtml(k)}</li>`).join('') || '<li>no records</li>'}</ul></div>
<div class="lost"><h4>Disk lost (volatile)</h4><ul>${lost.map((l) => `<li>${escapeHtml(l)}</li>`).join('') || `<li>${c.fault.mode === 'keep-all' ? 'nothing: a process kill keeps the page cache' : 'nothing unsynced'}</li>`}</ul></div></section>`;
  });
  const summary = violations.length === 0 ? '<p class="clean">No violation.</p>' : `<ol class="violations">${items.join('\n')}</ol>`;
  const steps = shown.trace.filter((e) => e.step !== undefined).length;
  const left = gaps.reduce((n, g) => n + g.to - g.from + 1, 0);
  const stats = `${count(table.rows, 'row')}, one per trace entry (${count(steps, 'worker step')}, ${count(table.rows - steps - gaps.length, 'other event')}${gaps.length > 0 ? `; ${count(left, 'entry', 'entries')} of ${result.trace.length} not shown, in ${count(gaps.length, 'gap')}` : ''}), ${table.folded} folded · ${count(result.stats.incarnations, 'incarnation')} · ${result.stats.virtualTimeMs} virtual ms`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#1d2330}
h1{font-size:18px}h2{font-size:15px;margin-top:24px}h3{font-size:13px}
.meta{white-space:pre-wrap;background:#f4f6fa;padding:8px;border-radius:4px}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin:8px 0}.legend span.key{display:inline-block;width:28px;height:12px;margin-right:4px;vertical-align:middle;padding:0}
table{border-collapse:collapse;width:100%;table-layout:fixed}
thead th{position:sticky;top:0;background:#263149;color:#fff;padding:6px;font-weight:600;z-index:1}
th.seq,th.time{width:52px;color:#667;font-weight:400;text-align:right;padding-right:6px;vertical-align:top}
td{vertical-align:top;padding:1px 3px;border-left:1px solid #e3e7ef}
.event{background:#eef2f8;border-radius:3px;padding:2px 4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.event.violation{white-space:normal}
details.event{white-space:normal}details.event>summary{list-style:none;cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
details.event>summary::-webkit-details-marker{display:none}details.event .call{white-space:pre-wrap;word-break:break-all;margin-top:2px;color:#334}
.pinned{box-shadow:inset 3px 0 0 #2a6fdb}
.step{color:#778}.commit{background:#e3f5e6}.fault{background:#fff1d6;border-left:3px solid #e59a00}
.crash{background:#fde2e2;border-left:3px solid #c62828}.user-edit{background:#e8e2fd;border-left:3px solid #5b3cc4}
.escape{background:#fde2e2}.violation{outline:2px solid #c62828;background:#ffd0d0}
.violating-row th{color:#c62828;font-weight:700}.why{color:#9b1c1c;font-weight:600;margin-top:2px}
.disk-state{display:flex;flex-direction:column;gap:1px;margin-top:1px}.file{border-radius:3px;padding:1px 4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.file.synced{background:#e3f5e6}.file.unsynced{background:#fff1d6;border-left:3px solid #e59a00}
.violations li{margin-bottom:6px}.links{color:#556}.disk-then .disk-state{display:inline-flex;flex-direction:row;gap:6px}
tbody.fold tr[data-folded]{display:none}tbody.fold:has(input:checked) tr[data-folded]{display:table-row}
tr.fold-toggle td{background:#f4f6fa;color:#445;font-style:italic;cursor:pointer}tr.fold-toggle label{cursor:pointer}
.crash-report{display:flex;flex-wrap:wrap;gap:16px;border:1px solid #f0c4c4;padding:6px 10px;margin:8px 0;border-radius:4px}
.crash-report h3{width:100%;margin:2px 0}.kept,.lost{flex:1;min-width:260px}.lost li{color:#9b1c1c}
.clean{color:#1b7a2e;font-weight:600}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<div class="meta">${escapeHtml(describeScenario(result.scenario).join('\n'))}\noutcome: ${escapeHtml(result.outcome.kind)} · ${escapeHtml(stats)} · trace ${escapeHtml(result.traceHash.slice(0, 16))}</div>
<h2>Violations</h2>${summary}
<h2>Crashes</h2>${crashes.join('\n') || '<p>No crash.</p>'}
<h2>Timeline</h2>
<div class="legend">${LEGEND.map(([cls, text]) => `<span><span class="key ${cls}"></span>${escapeHtml(text)}</span>`).join('')}</div>
<table><thead><tr><th class="seq">#</th><th class="time">time</th>${table.lanes.map((l) => `<th class="lane" data-lane="${escapeHtml(l)}">${escapeHtml(l)}</th>`).join('')}</tr></thead>
${table.html}</table>
</body></html>
`;
}
