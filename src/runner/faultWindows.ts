/**
 * Fault windows: which fault struck the journal where. A window is a fault (its kind and shape:
 * "crash lose-unsynced", "response drop-after-commit", "store timeout-before-apply", "duplicate-delivery")
 * × the kind of the journal's step it struck (append, fsync, POST, lease…) × whose step it was
 * (the first worker's first incarnation, a restarted one, a second worker). `check` records the
 * windows every run hit, read from its trace, and steers later runs toward windows not yet hit
 * (windowGuide.ts).
 *
 * A fault is attributed to a step the way the simulator places it: a crash, an I/O error, a pause
 * and a faulty answer to a call to the step whose call it was (the last worker step before the
 * fault's trace line: a crash "before" a step is traced right after that step's line); an event
 * fired between steps (a duplicate delivery, a restart, a takeover, a cancel, a user's save or
 * store write, an input change) to the step it lands before (the next worker step). An I/O error
 * that found no disk call to fail hit nothing and is no window.
 */
import type { Fault } from '../../simulator/scenario/scenario.js';
import { STORE_CALL_FAULTS } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { stepKind, type StepKind } from './stepKind.js';
import type { WindowPoint } from './windowFaults.js';

/** Whose step a fault struck. */
export type StepOwner = 'first' | 'restarted' | 'second worker';

/** The windows one run hit, and the points it offers for later runs to aim at (the first step of each kind and owner). */
export interface RunWindows {
  hit: string[];
  offered: OfferedPoint[];
  /** Whether the journal called the shared store (store faults can land only then). */
  usesStore: boolean;
}

export interface OfferedPoint {
  kind: StepKind;
  owner: StepOwner;
  point: WindowPoint;
}

/** A window's name: "<fault> @ <step kind> · <owner>". */
export function windowName(fault: string, kind: StepKind | 'start' | 'end', owner: StepOwner | 'none'): string {
  return `${fault} @ ${kind} · ${owner}`;
}

/** The fault part of a window, for a fault as a scenario places it (the same words windowsOf reads from a trace). */
export function faultWindowLabel(fault: Fault): string {
  switch (fault.kind) {
    case 'crash':
      return `crash ${fault.mode ?? 'keep-all'}`;
    case 'io-error':
      return `io-error ${fault.error}`;
    case 'response':
      return `response ${fault.fault}`;
    case 'store-call':
      return `store ${fault.fault}`;
    case 'duplicate-delivery':
    case 'concurrent-call':
    case 'pause':
      return fault.kind;
    case 'service-restart':
      return 'service restart';
    case 'store-restart':
      return 'store restart';
    case 'takeover':
      return 'operator takeover';
    case 'store-edit':
      return 'user store-edit';
    case 'cancel':
      return 'user cancel';
    case 'user-edit':
      return 'user edit';
    case 'input-change':
      return 'user input-change';
  }
}

const EVENTS: Readonly<Record<string, string>> = {
  'supervisor duplicate-delivery': 'duplicate-delivery',
  'supervisor concurrent-call': 'concurrent-call',
  'service restart': 'service restart',
  'store restart': 'store restart',
  'operator takeover': 'operator takeover',
  'user cancel': 'user cancel',
  'user edit': 'user edit',
  'user input-change': 'user input-change',
  'user store-edit': 'user store-edit',
};
const STORE_TAGS: ReadonlySet<string> = new Set(STORE_CALL_FAULTS);

/** The faults a trace line shows, and whether each struck the step before it (else the one after). */
const NONE: readonly { label: string; before: boolean }[] = [];

function faultsOfLine(entry: TraceEntry): readonly { label: string; before: boolean }[] {
  if (entry.actor.startsWith('worker-')) return NONE; // a step's result, or its console output
  const name = `${entry.actor} ${entry.op}`;
  const out: { label: string; before: boolean }[] = [];
  const event = EVENTS[name];
  if (event !== undefined) out.push({ label: event, before: false });
  if (name === 'supervisor crash') out.push({ label: `crash ${/\((\S+?):/.exec(entry.detail)?.[1] ?? 'keep-all'}`, before: true });
  else if (name === 'supervisor pause') out.push({ label: 'pause', before: true });
  else if (name === 'disk io-error' && !entry.detail.includes(' did nothing: ')) out.push({ label: `io-error ${/^\S+?(?=:)/.exec(entry.detail)?.[0] ?? 'EIO'}`, before: true });
  const tag = / \[([a-z0-9-]+)\]/.exec(entry.detail)?.[1];
  if (tag !== undefined) {
    // The operator's and the user's store calls are made by their events, between the journal's steps.
    const between = entry.actor === 'operator' || entry.actor === 'user';
    if (name === 'service receive') out.push({ label: `response ${tag}`, before: true });
    else if ((entry.actor === 'store' || between) && STORE_TAGS.has(tag)) out.push({ label: `store ${tag}`, before: !between });
  }
  return out;
}

function ownerOf(entry: TraceEntry): StepOwner {
  if (entry.actor !== 'worker-0') return 'second worker';
  return (entry.incarnation ?? 0) > 0 ? 'restarted' : 'first';
}

const isStep = (entry: TraceEntry): boolean => entry.step !== undefined && entry.actor.startsWith('worker-') && !entry.op.endsWith(':result');

/** The windows a run's trace shows hit, and (`offers`: for the guide to aim) the points it offers (see RunWindows). */
export function windowsOf(trace: readonly TraceEntry[], offers = true): RunWindows {
  const hit = new Set<string>();
  let last: TraceEntry | undefined;
  // Events waiting for the next step of a worker that was already running when they fired (a duplicate's newcomer may step first;
  // with none running, whoever steps next).
  let waiting: { label: string; running: ReadonlySet<string> }[] = [];
  const running = new Set<string>();
  let usesStore = false;
  for (const entry of trace) {
    if (entry.actor === 'store') usesStore = true;
    if (isStep(entry)) {
      const name = `${entry.actor}#${entry.incarnation ?? 0}`;
      const due = waiting.filter((w) => w.running.size === 0 || w.running.has(name));
      for (const { label } of due) hit.add(windowName(label, stepKind(entry.op, entry.detail), ownerOf(entry)));
      if (due.length > 0) waiting = waiting.filter((w) => !due.includes(w));
      last = entry;
      continue;
    }
    if (entry.actor === 'supervisor' && entry.op === 'start') running.add(entry.detail);
    if (entry.actor === 'supervisor' && entry.op === 'exit') running.delete(entry.detail.split(' ')[0] ?? '');
    if (entry.actor === 'supervisor' && entry.op === 'crash') for (const killed of entry.detail.slice(entry.detail.indexOf('killed')).match(/worker-\d+#\d+/g) ?? []) running.delete(killed);
    for (const { label, before } of faultsOfLine(entry)) {
      if (!before) waiting.push({ label, running: new Set(running) });
      else hit.add(last === undefined ? windowName(label, 'start', 'none') : windowName(label, stepKind(last.op, last.detail), ownerOf(last)));
    }
  }
  for (const { label } of waiting) hit.add(windowName(label, 'end', 'none'));
  const offered: OfferedPoint[] = [];
  if (!offers) return { hit: [...hit].sort(), offered, usesStore };
  // The first step of each kind and owner, with the requests and store calls it made (their lines follow it) and
  // the keys the same worker's previous step put in the store (as crashPoints reads them).
  const seen = new Set<string>();
  const lastPuts = new Map<string, string[]>();
  let puts: string[] = [];
  let current: { requests: number[]; storeCalls: number[] } | undefined;
  for (const entry of trace) {
    if (entry.actor === 'service' && entry.op === 'receive') {
      const request = /^#(\d+)/.exec(entry.detail)?.[1];
      if (request !== undefined) current?.requests.push(Number(request));
    }
    if (entry.actor === 'store') {
      const call = /^#(\d+) \S+ (put|delete) (\S+).* → ok/.exec(entry.detail) ?? /^#(\d+)/.exec(entry.detail);
      if (call?.[1] !== undefined) current?.storeCalls.push(Number(call[1]));
      if (call?.[3] !== undefined && call[2] === 'put') puts.push(call[3]);
    }
    if (!isStep(entry)) continue;
    const actor = `${entry.actor}#${entry.incarnation ?? 0}`;
    const storeKeys = lastPuts.get(actor) ?? [];
    puts = [];
    lastPuts.set(actor, puts);
    current = undefined;
    const kind = stepKind(entry.op, entry.detail);
    const owner = ownerOf(entry);
    if (seen.has(`${kind}/${owner}`)) continue;
    seen.add(`${kind}/${owner}`);
    current = { requests: [], storeCalls: [] };
    offered.push({ kind, owner, point: { pid: Number(entry.actor.slice('worker-'.length)), incarnation: entry.incarnation ?? 0, step: entry.step ?? 0, globalStep: entry.globalStep ?? 0, requests: current.requests, storeCalls: current.storeCalls, storeKeys: [...storeKeys] } });
  }
  return { hit: [...hit].sort(), offered, usesStore };
}
