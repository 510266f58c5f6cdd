/**
 * The entries a report never folds away (issue 54, item 6), whatever the run's length: for each
 * violation, what it stands on, up to its step —
 * - the scenario fault that set it off (the last fault at or before it naming its key, else the
 *   last fault before it: timeline.ts's triggerOf);
 * - the steps that touched its key: where the key's record changed on the durable image (each state
 *   durasim observed) and where the service committed an effect of it;
 * - the locks it depends on: every change of a lock file (created, written, renamed, linked or
 *   removed; a call that failed changed nothing), with the last read of that file by the same
 *   incarnation before each change — the moment a stale lock was taken over and what it was told
 *   first. A lock file is one named so (`*.lock`, `lock`, `*.lck`, a file in a `locks` folder), one a
 *   call created exclusively (`wx`, `ax`), or the target of a hard link (the no-clobber publish);
 * - the task's lease in the store: every lease call that changed it (acquired, renewed, released,
 *   forced), with the caller's step.
 * At most PINNED_MAX entries: past that many, those nearest before each violation are kept.
 */
import type { Violation } from '../../model/violation.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { isFault } from './timelineRows.js';

/** The most entries a report keeps for what its violations stand on. */
export const PINNED_MAX = 300;

export type PinSource = Pick<SimulationResult, 'trace' | 'observed' | 'effects' | 'scenario'> & { store?: Pick<SimulationResult['store'], 'calls'> };

/** The scenario fault that set a violation off: the last fault at or before it that names its key, else the last fault before it. */
export function triggerOf(trace: readonly TraceEntry[], violation: Violation): TraceEntry | undefined {
  const before = trace.slice(0, violation.step + 1).filter(isFault);
  return before.findLast((e) => violation.key !== '' && e.detail.includes(violation.key)) ?? before.at(-1);
}

const LOCK_NAME = /(^|\/)(locks?|\.locks?)\/|(^|[./_-])(lock|lck|lockfile|mutex)$/i;
const CHANGES = /^(appendFile|writeFile|write|writev|truncate|ftruncate|rename|link|unlink|rm|rmdir|mkdir|copyFile|cp)$/;
const READS = /^(readFile|read|readv|stat|lstat|fstat|access|exists|readdir|opendir)$/;

/** What a disk call in the trace did to which paths: its verb (the op's last word, Sync dropped), the paths (a rename's or link's two), and its flag when it opens. */
function diskCall(entry: TraceEntry): { verb: string; paths: string[]; flag?: string } | undefined {
  if (entry.step === undefined || !/^(fs|fh)\./.test(entry.op) || entry.op.endsWith(':result')) return undefined;
  const verb = (entry.op.split('.').at(-1) as string).replace(/Sync$/, '');
  const arrow = entry.detail.indexOf(' → ');
  if (arrow >= 0) return { verb, paths: [entry.detail.slice(0, arrow).split(' ')[0] as string, entry.detail.slice(arrow + 3).split(' ')[0] as string] };
  const [path = '', second, third] = entry.detail.split(' ');
  // A whole-file write through a path is three steps: "<path> open <flag>", "<path> write …", "<path> close".
  const flag = verb === 'open' ? second : second === 'open' ? third : undefined;
  return { verb, paths: [path.replace(/\/$/, '')], ...(flag !== undefined ? { flag } : {}) };
}

const changes = (call: { verb: string; flag?: string }): boolean => CHANGES.test(call.verb) || (call.flag !== undefined && /[wa+]/.test(call.flag));

export function pinnedEntries(result: PinSource, violations: readonly Violation[]): Set<number> {
  const pinned = new Map<number, number>(); // seq → the step of the violation it serves (for the nearest-first cut)
  if (violations.length === 0) return new Set();
  const pin = (seq: number | undefined, upTo: number): void => {
    if (seq === undefined || seq < 0 || seq > upTo) return;
    pinned.set(seq, Math.min(pinned.get(seq) ?? Number.POSITIVE_INFINITY, upTo));
  };
  const last = Math.max(...violations.map((v) => v.step));
  // Which steps failed (a ":result" with an error code): they changed nothing.
  const failed = new Set<string>();
  for (const e of result.trace) if (e.op.endsWith(':result') && /^E[A-Z]+$|Error$/.test(e.detail)) failed.add(`${e.actor}#${e.incarnation ?? 0}:${e.step ?? -1}`);
  const calls = result.trace.flatMap((entry) => {
    const call = diskCall(entry);
    return call ? [{ entry, ...call, ok: !failed.has(`${entry.actor}#${entry.incarnation ?? 0}:${entry.step ?? -1}`) }] : [];
  });
  const locks = new Set<string>();
  for (const c of calls) {
    for (const path of c.paths) if (LOCK_NAME.test(path)) locks.add(path);
    if (c.verb === 'link') locks.add(c.paths[1] as string);
    if (c.flag !== undefined && c.flag.includes('x')) locks.add(c.paths[0] as string);
  }
  for (const v of violations) {
    pin(triggerOf(result.trace, v)?.seq, v.step);
    if (v.key === '') continue;
    for (const o of result.observed[v.key] ?? []) pin(o.seq, v.step);
    for (const effect of result.effects) if (effect.key === v.key) pin(effect.seq, v.step);
  }
  // Locks and the task's lease: up to the last violation.
  for (const [i, c] of calls.entries()) {
    if (c.entry.seq > last || !c.ok || !changes(c) || !c.paths.some((p) => locks.has(p))) continue;
    pin(c.entry.seq, last);
    const who = `${c.entry.actor}#${c.entry.incarnation ?? 0}`;
    const read = calls.slice(0, i).findLast((r) => `${r.entry.actor}#${r.entry.incarnation ?? 0}` === who && READS.test(r.verb) && r.paths.some((p) => c.paths.includes(p)));
    pin(read?.entry.seq, last);
  }
  const task = result.scenario.task.id;
  for (const call of result.store?.calls ?? []) {
    const op = call.request.op;
    if ((op !== 'acquire' && op !== 'renew' && op !== 'release') || !call.applied || !call.answer.ok || call.request.name !== task || call.seq > last) continue;
    pin(call.seq, last);
    const step = result.trace[call.seq - 1];
    if (step !== undefined && `${step.actor}#${step.incarnation ?? 0}` === call.by) pin(step.seq, last);
  }
  if (pinned.size <= PINNED_MAX) return new Set(pinned.keys());
  // Past the cap: those nearest before the violation each serves.
  return new Set([...pinned].sort((a, b) => a[1] - a[0] - (b[1] - b[0]) || a[0] - b[0]).slice(0, PINNED_MAX).map(([seq]) => seq));
}
