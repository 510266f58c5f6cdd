/**
 * The rows of timeline.html: one per trace entry, in lanes (supervisor, each worker's incarnations
 * in order, user, service, disk). Long runs of uneventful rows in one lane fold into a group that a
 * click opens (a checkbox and CSS: the page stays free of scripts); a row a violation stands on
 * (pinnedEntries.ts) never folds. A cell cut to its first characters opens (a <details>) onto the
 * whole call. The disk lane shows the work folder's files, visible and durable, after every entry
 * that changed them.
 */
import type { DiskFileState, DiskLaneState } from '../../simulator/disk/diskLane.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import type { Violation } from '../../model/violation.js';
import { describeViolation } from '../../model/violation.js';

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A run of at least this many uneventful rows in one lane is folded, all but its first two and last one. */
export const FOLD_AT = 6;
/** About what a lane's cell shows of a call: a longer one is cut to its first characters, and opens onto the whole of it. */
export const CELL_CHARS = 40;

export function laneOf(entry: TraceEntry): string {
  if (entry.actor.startsWith('worker-')) return `${entry.actor}#${entry.incarnation ?? 0}`;
  return entry.actor;
}

/** supervisor, then workers by pid and incarnation (as numbers: worker-2 before worker-10), then user, service, disk. */
export function lanesOf(trace: readonly TraceEntry[]): string[] {
  const workers = [...new Set(trace.filter((e) => e.actor.startsWith('worker-')).map(laneOf))];
  const order = (lane: string): number[] => (/^worker-(\d+)#(\d+)$/.exec(lane) ?? []).slice(1).map(Number);
  workers.sort((a, b) => {
    const [pa = 0, ia = 0] = order(a);
    const [pb = 0, ib = 0] = order(b);
    return pa - pb || ia - ib;
  });
  const others = [...new Set(trace.map((e) => e.actor))].filter((a) => !a.startsWith('worker-') && !['supervisor', 'user', 'service', 'disk'].includes(a)).sort();
  return ['supervisor', ...workers, ...others, 'user', 'service', 'disk'];
}

/** The marker classes of an entry: what the legend explains. */
export function markersOf(entry: TraceEntry): string[] {
  if (entry.op === 'crash') return ['marker', 'crash'];
  if (entry.op === 'escape') return ['marker', 'escape'];
  if (entry.actor === 'user') return ['marker', 'user-edit'];
  if (entry.op === 'restart' || entry.op === 'duplicate-delivery' || entry.op === 'concurrent-call') return ['marker', 'fault'];
  if (entry.op === 'receive' && /\[[a-z0-9-]+\]/.test(entry.detail)) return ['marker', 'fault'];
  if (entry.op === 'commit') return ['commit'];
  return [];
}

export const isFault = (entry: TraceEntry): boolean => markersOf(entry).includes('marker');

function fileText(f: DiskFileState): string {
  const visible = f.visibleBytes === undefined ? 'gone' : `${f.visibleBytes} B`;
  const durable = f.durableBytes === undefined ? 'not durable' : `${f.durableBytes} B durable`;
  return f.synced ? `${f.path} ${visible}, synced` : `${f.path} ${visible} visible · ${durable}`;
}

export function diskStateHtml(files: readonly DiskFileState[]): string {
  if (files.length === 0) return '<div class="disk-state"><span class="file">no files</span></div>';
  return `<div class="disk-state">${files.map((f) => `<span class="file ${f.synced ? 'synced' : 'unsynced'}" title="${escapeHtml(fileText(f))}">${escapeHtml(fileText(f))}</span>`).join('')}</div>`;
}

/** The disk as it stood at trace position `seq`: the last lane state at or before it. */
export function diskAt(lane: readonly DiskLaneState[] | undefined, seq: number): DiskLaneState | undefined {
  let found: DiskLaneState | undefined;
  for (const state of lane ?? []) {
    if (state.seq > seq) break;
    found = state;
  }
  return found;
}

interface Row {
  entry: TraceEntry;
  lane: string;
  html: string;
  eventful: boolean;
}

export interface Rows {
  lanes: string[];
  html: string;
  /** Rows rendered: one per trace entry, always. */
  rows: number;
  folded: number;
}

export function timelineRows(result: SimulationResult, violations: readonly Violation[], linked: ReadonlySet<number>, pinned: ReadonlySet<number> = new Set()): Rows {
  const lanes = lanesOf(result.trace);
  const violating = new Map<number, Violation[]>();
  for (const v of violations) violating.set(v.step, [...(violating.get(v.step) ?? []), v]);
  const diskBySeq = new Map((result.diskLane ?? []).map((s) => [s.seq, s]));
  const rows: Row[] = result.trace.map((entry) => {
    const lane = laneOf(entry);
    const here = violating.get(entry.seq);
    const disk = diskBySeq.get(entry.seq);
    const classes = ['event', ...markersOf(entry), ...(here ? ['violation'] : []), ...(pinned.has(entry.seq) ? ['pinned'] : [])];
    const step = entry.step === undefined ? '' : `step ${entry.step} (global ${entry.globalStep ?? '?'}) · `;
    const title = `#${entry.seq} · ${entry.timeMs} ms · ${lane} · ${step}${entry.op} ${entry.detail}`;
    const label = entry.step === undefined ? '' : `<span class="step">${entry.step}</span> `;
    const note = here ? `<div class="why">${here.map((v) => escapeHtml(describeViolation(v))).join('<br>')}</div>` : '';
    // A call longer than its cell shows is cut to its first characters; opened, it shows the whole call (the whole data, where the trace cut it).
    const whole = result.wholeCalls?.[entry.seq];
    const cut = here === undefined && (whole !== undefined || entry.op.length + entry.detail.length + 1 > CELL_CHARS);
    const shownEvent = cut
      ? `<details class="${classes.join(' ')}" title="${escapeHtml(title)}"><summary>${label}<b>${escapeHtml(entry.op)}</b> ${escapeHtml(entry.detail)}</summary><div class="call">${escapeHtml(`#${entry.seq} · ${entry.timeMs} ms · ${lane} · ${step}${entry.op} ${whole ?? entry.detail}`)}</div></details>`
      : `<div class="${classes.join(' ')}" title="${escapeHtml(title)}">${label}<b>${escapeHtml(entry.op)}</b> ${escapeHtml(entry.detail)}${note}</div>`;
    const cells = lanes.map((l) => {
      const event = l === lane ? shownEvent : '';
      const diskCell = l === 'disk' && disk ? diskStateHtml(disk.files) : '';
      return `<td>${event}${diskCell}</td>`;
    });
    const html = `<tr id="seq-${entry.seq}"${here ? ' class="violating-row"' : ''}><th class="seq">${entry.seq}</th><th class="time">${entry.timeMs} ms</th>${cells.join('')}</tr>`;
    return { entry, lane, html, eventful: here !== undefined || classes.includes('marker') || linked.has(entry.seq) };
  });
  const parts: string[] = [];
  let folded = 0;
  let open: string[] = [];
  const flush = (run: Row[]): void => {
    if (run.length < FOLD_AT) {
      open.push(...run.map((r) => r.html));
      return;
    }
    const inner = run.slice(2, -1);
    const ops = new Map<string, number>();
    for (const r of inner) ops.set(r.entry.op, (ops.get(r.entry.op) ?? 0) + 1);
    const what = [...ops].map(([op, n]) => (n === 1 ? op : `${op} ×${n}`)).join(', ');
    open.push(...run.slice(0, 2).map((r) => r.html));
    parts.push(`<tbody>${open.join('\n')}</tbody>`);
    open = [];
    const id = `fold-${run[2]?.entry.seq}`;
    parts.push(`<tbody class="fold"><tr class="fold-toggle"><th></th><th></th><td colspan="${lanes.length}"><input type="checkbox" id="${id}"><label for="${id}">${inner.length} more rows of ${escapeHtml(run[0]?.lane ?? '')} (#${inner[0]?.entry.seq}–#${inner.at(-1)?.entry.seq}): ${escapeHtml(what)}</label></td></tr>\n${inner.map((r) => r.html.replace('<tr ', '<tr data-folded="1" ')).join('\n')}</tbody>`);
    folded += inner.length;
    open.push((run.at(-1) as Row).html);
  };
  let run: Row[] = [];
  for (const row of rows) {
    if (!row.eventful && (run.length === 0 || run[0]?.lane === row.lane)) {
      run.push(row);
      continue;
    }
    flush(run);
    run = row.eventful ? [] : [row];
    if (row.eventful) open.push(row.html);
  }
  flush(run);
  parts.push(`<tbody>${open.join('\n')}</tbody>`);
  return { lanes, html: parts.join('\n'), rows: rows.length, folded };
}
