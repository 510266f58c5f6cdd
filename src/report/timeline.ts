/**
 * timeline.html: a self-contained page (no network) showing a run as swimlanes — one per worker
 * incarnation, plus the service, the disk, the user and the supervisor — with crash and fault
 * markers, the violating steps highlighted, and at each crash what the disk kept and lost.
 */
import { count } from './count.js';
import { describeViolation, type Violation } from '../../model/violation.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/trace.js';
import { describeLoss } from '../../simulator/runRecords.js';
import { describeScenario } from './explain.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function laneOf(entry: TraceEntry): string {
  if (entry.actor.startsWith('worker-')) return `${entry.actor}#${entry.incarnation ?? 0}`;
  if (entry.op === 'crash' && entry.actor === 'supervisor') return 'supervisor';
  return entry.actor;
}

function classesOf(entry: TraceEntry): string[] {
  const classes = ['event'];
  if (entry.op === 'crash') classes.push('marker', 'crash');
  if (entry.op === 'receive' && /\[[a-z0-9-]+\]/.test(entry.detail)) classes.push('marker', 'fault');
  if (entry.actor === 'user') classes.push('marker', 'user-edit');
  if (entry.op === 'restart' || entry.op === 'duplicate-delivery') classes.push('marker', 'fault');
  if (entry.op === 'commit') classes.push('commit');
  if (entry.op === 'escape') classes.push('marker', 'escape');
  return classes;
}

export function timelineHtml(result: SimulationResult, violations: readonly Violation[], title: string): string {
  const fixed = ['supervisor', 'user', 'service', 'disk'];
  const workerLanes = [...new Set(result.trace.filter((e) => e.actor.startsWith('worker-')).map(laneOf))];
  const lanes = [fixed[0] as string, ...workerLanes, ...fixed.slice(1)];
  const violating = new Map<number, Violation[]>();
  for (const v of violations) violating.set(v.step, [...(violating.get(v.step) ?? []), v]);
  const rows = result.trace.map((entry) => {
    const lane = laneOf(entry);
    const here = violating.get(entry.seq);
    const cells = lanes.map((l) => {
      if (l !== lane) return '<td></td>';
      const classes = classesOf(entry);
      if (here) classes.push('violation');
      const step = entry.step === undefined ? '' : `<span class="step">step ${entry.step}</span> `;
      const note = here ? `<div class="why">${here.map((v) => escapeHtml(describeViolation(v))).join('<br>')}</div>` : '';
      return `<td><div class="${classes.join(' ')}" title="${escapeHtml(`${entry.op} ${entry.detail}`)}">${step}<b>${escapeHtml(entry.op)}</b> ${escapeHtml(entry.detail)}${note}</div></td>`;
    });
    return `<tr id="seq-${entry.seq}"${here ? ' class="violating-row"' : ''}><th class="seq">${entry.seq}</th><th class="time">${entry.timeMs} ms</th>${cells.join('')}</tr>`;
  });
  const crashes = result.crashes.map((c, i) => {
    const lost = describeLoss(c.disk);
    const kept = Object.entries(c.records).map(([key, r]) => `${key}: ${r.history.join(' → ') || '(nothing)'}`);
    return `<section class="crash-report" id="crash-${i + 1}"><h3>Crash ${i + 1} at #${c.seq} (${escapeHtml(c.fault.mode)}; killed ${escapeHtml(c.killed.join(', '))})</h3>
<div class="kept"><h4>Disk kept (durable records)</h4><ul>${kept.map((k) => `<li>${escapeHtml(k)}</li>`).join('') || '<li>no records</li>'}</ul></div>
<div class="lost"><h4>Disk lost (volatile)</h4><ul>${lost.map((l) => `<li>${escapeHtml(l)}</li>`).join('') || `<li>${c.fault.mode === 'keep-all' ? 'nothing: a process kill keeps the page cache' : 'nothing unsynced'}</li>`}</ul></div></section>`;
  });
  const summary = violations.length === 0 ? '<p class="clean">No violation.</p>' : `<ol class="violations">${violations.map((v) => `<li><a href="#seq-${v.step}">${escapeHtml(describeViolation(v))}</a></li>`).join('')}</ol>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#1d2330}
h1{font-size:18px}h2{font-size:15px;margin-top:24px}h3{font-size:13px}
.meta{white-space:pre-wrap;background:#f4f6fa;padding:8px;border-radius:4px}
table{border-collapse:collapse;width:100%;table-layout:fixed}
thead th{position:sticky;top:0;background:#263149;color:#fff;padding:6px;font-weight:600}
th.seq,th.time{width:52px;color:#667;font-weight:400;text-align:right;padding-right:6px;vertical-align:top}
td{vertical-align:top;padding:1px 3px;border-left:1px solid #e3e7ef}
.event{background:#eef2f8;border-radius:3px;padding:2px 4px;overflow-wrap:anywhere}
.step{color:#778}.commit{background:#e3f5e6}.fault{background:#fff1d6;border-left:3px solid #e59a00}
.crash{background:#fde2e2;border-left:3px solid #c62828}.user-edit{background:#e8e2fd;border-left:3px solid #5b3cc4}
.escape{background:#fde2e2}.violation{outline:2px solid #c62828;background:#ffd0d0}
.violating-row th{color:#c62828;font-weight:700}.why{color:#9b1c1c;font-weight:600;margin-top:2px}
.crash-report{display:flex;flex-wrap:wrap;gap:16px;border:1px solid #f0c4c4;padding:6px 10px;margin:8px 0;border-radius:4px}
.crash-report h3{width:100%;margin:2px 0}.kept,.lost{flex:1;min-width:260px}.lost li{color:#9b1c1c}
.clean{color:#1b7a2e;font-weight:600}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<div class="meta">${escapeHtml(describeScenario(result.scenario).join('\n'))}\noutcome: ${escapeHtml(result.outcome.kind)} · ${count(result.stats.steps, 'step')} · ${count(result.stats.incarnations, 'incarnation')} · ${result.stats.virtualTimeMs} virtual ms · trace ${escapeHtml(result.traceHash.slice(0, 16))}</div>
<h2>Violations</h2>${summary}
<h2>Crashes</h2>${crashes.join('\n') || '<p>No crash.</p>'}
<h2>Timeline</h2>
<table><thead><tr><th class="seq">#</th><th class="time">time</th>${lanes.map((l) => `<th class="lane" data-lane="${escapeHtml(l)}">${escapeHtml(l)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</body></html>
`;
}
