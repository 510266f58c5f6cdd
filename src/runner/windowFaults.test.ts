import { describe, expect, test } from 'vitest';
import { baseScenario, defaultFaultKinds, DEFAULT_FAULT_KINDS, featuredScenario, FAULT_KINDS, type FaultKind } from '../arbitraries.js';
import { FAILURE_CLASS_FAULTS, RESPONSE_FAULTS, STORE_CALL_FAULTS } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { crashPoints } from './crashExplorer.js';
import { EXPLORE_LONG_DELAY_MS, EXPLORE_PAUSE_MS, intentChanges, windowFaultsAt, type WindowPoint } from './windowFaults.js';

const point = (over: Partial<WindowPoint> = {}): WindowPoint => ({ pid: 0, incarnation: 0, step: 7, globalStep: 9, requests: [], storeCalls: [], storeKeys: [], ...over });
const labels = (families: readonly FaultKind[], p: WindowPoint, usesStore = false, base = baseScenario()) => windowFaultsAt(p, { base, families: new Set(families), usesStore }).map((w) => `${w.family}: ${w.label}`);

describe('the faults explore tries at one step', () => {
  test('events fire just before the step (its global index); a request gets every answer and failure class, a long delay too', () => {
    const faults = windowFaultsAt(point({ requests: [3] }), { base: baseScenario(), families: new Set(DEFAULT_FAULT_KINDS), usesStore: false });
    expect(faults.find((w) => w.label === 'duplicate delivery')?.fault).toEqual({ kind: 'duplicate-delivery', atStep: 9 });
    expect(faults.find((w) => w.label === 'service restart')?.fault).toEqual({ kind: 'service-restart', atStep: 9 });
    expect(faults.find((w) => w.label === 'cancel')?.fault).toEqual({ kind: 'cancel', atStep: 9 });
    expect(faults.find((w) => w.label === 'user saves notes.md')?.fault).toEqual({ kind: 'user-edit', atStep: 9, path: 'notes.md', text: 'the user rewrote this file\n' });
    expect(faults.filter((w) => w.family === 'response').map((w) => w.fault)).toEqual([
      ...RESPONSE_FAULTS.map((fault) => ({ kind: 'response', request: 3, fault })),
      { kind: 'response', request: 3, fault: 'delay', delayMs: EXPLORE_LONG_DELAY_MS },
    ]);
    expect(faults.filter((w) => w.family === 'failure').map((w) => w.fault)).toEqual([
      ...FAILURE_CLASS_FAULTS.map((fault) => ({ kind: 'response', request: 3, fault })),
      { kind: 'response', request: 3, fault: 'unavailable', retryAfterMs: EXPLORE_LONG_DELAY_MS },
    ]);
    // Every label at a point is its own state: none repeats.
    expect(new Set(faults.map((w) => w.label)).size).toBe(faults.length);
  });

  test('only the families asked for (concurrent among the defaults, left out for a journal called one at a time); the store only for a journal that calls it', () => {
    const p = point({ requests: [0], storeCalls: [2], storeKeys: ['task-1/projection'] });
    expect(labels(['duplicate'], p)).toEqual(['duplicate: duplicate delivery', 'duplicate: duplicate delivery, the newcomer first']);
    // The newcomer first: schedule [1], only where the base makes no scheduling choices of its own.
    expect(windowFaultsAt(p, { base: baseScenario(), families: new Set(['duplicate']), usesStore: false })[1]).toEqual({ family: 'duplicate', fault: { kind: 'duplicate-delivery', atStep: 9 }, label: 'duplicate delivery, the newcomer first', schedule: [1] });
    expect(labels(['duplicate'], p, false, { ...baseScenario(), schedule: [0, 1] })).toEqual(['duplicate: duplicate delivery']);
    expect(labels(DEFAULT_FAULT_KINDS, p).some((l) => l.startsWith('concurrent'))).toBe(true);
    expect(labels(defaultFaultKinds('one-at-a-time'), p).some((l) => l.startsWith('concurrent'))).toBe(false);
    expect(labels(['concurrent'], p)).toEqual(['concurrent: concurrent call']);
    expect(labels(['store'], point({ requests: [0] }), false)).toEqual([]);
    expect(labels(['store'], p, true)).toEqual([
      'store: pause',
      'store: store restart',
      'store: takeover',
      "store: someone else's task-1/projection",
      ...STORE_CALL_FAULTS.map((f) => `store: store call #2 ${f}`),
    ]);
    expect(windowFaultsAt(p, { base: baseScenario(), families: new Set(['store']), usesStore: true })[0]?.fault).toEqual({ kind: 'pause', process: 0, incarnation: 0, step: 7, pauseMs: EXPLORE_PAUSE_MS });
  });

  test('a stale read comes with a store that allows them; an input change only where a publish was planned from the input', () => {
    const stale = windowFaultsAt(point({ storeCalls: [0] }), { base: baseScenario(), families: new Set(['store']), usesStore: true }).find((w) => w.label.endsWith('stale-read'));
    expect(stale?.store?.consistency).toBe('stale-reads');
    expect(labels(['user'], point()).some((l) => l.includes('input'))).toBe(false);
    expect(labels(['user'], point(), false, featuredScenario())).toContain('user: input config changes');
  });

  test('every family but crash, disk, io and intent has a window explore tries (those three are the crash states and I/O errors; intent needs a restart)', () => {
    const all = windowFaultsAt(point({ requests: [0], storeCalls: [0], storeKeys: ['k'] }), { base: featuredScenario(), families: new Set(FAULT_KINDS), usesStore: true });
    expect(new Set(all.map((w) => w.family))).toEqual(new Set(FAULT_KINDS.filter((f) => !['crash', 'disk', 'io', 'intent'].includes(f))));
  });
});

describe('what a step asked of the service and the store', () => {
  test('requests and store calls follow their step in the trace; the keys a step put are the next step\'s to edit', () => {
    const trace: TraceEntry[] = [
      { seq: 0, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 0, globalStep: 0, op: 'store.put', detail: 'task-1/events/000000' },
      { seq: 1, timeMs: 0, actor: 'store', op: 'put', detail: '#0 worker-0#0 put task-1/events/000000 if absent → ok v1' },
      { seq: 2, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 1, globalStep: 1, op: 'fetch', detail: 'POST /operations/post-a' },
      { seq: 3, timeMs: 0, actor: 'service', op: 'commit', detail: 'post-a digest 8cd8e7592599 receipt rcpt-post-a-1' },
      { seq: 4, timeMs: 0, actor: 'service', op: 'receive', detail: '#0 POST /operations/post-a → 201' },
      { seq: 5, timeMs: 1, actor: 'worker-0', incarnation: 0, step: 1, op: 'fetch:result', detail: '201' },
      { seq: 6, timeMs: 1, actor: 'worker-0', incarnation: 0, step: 2, globalStep: 2, op: 'store.put', detail: 'task-1/projection' },
      { seq: 7, timeMs: 1, actor: 'store', op: 'put', detail: '#1 worker-0#0 put task-1/projection if v1 → refused: version (now v2)' },
    ];
    const before = crashPoints(trace).filter((p) => p.when === 'before');
    expect(before.map((p) => ({ globalStep: p.globalStep, requests: p.requests, storeCalls: p.storeCalls, storeKeys: p.storeKeys }))).toEqual([
      { globalStep: 0, requests: [], storeCalls: [0], storeKeys: [] },
      { globalStep: 1, requests: [0], storeCalls: [], storeKeys: ['task-1/events/000000'] },
      { globalStep: 2, requests: [], storeCalls: [1], storeKeys: [] }, // a refused put wrote nothing
    ]);
  });
});

describe("explore's intent family", () => {
  test("changes a body in its own format: plain text on its version, a JSON body's value (still JSON)", () => {
    const bodies = (body: string) => intentChanges(baseScenario([{ kind: 'publish', key: 'pay', body }])).map((c) => c.change.taskAfterRestart?.operations[0]);
    expect(bodies('artifact a v1').map((op) => op?.kind === 'publish' && op.body)).toEqual(['artifact a v2', 'artifact a v2']);
    expect(bodies('payout (no version)').map((op) => op?.kind === 'publish' && op.body)).toEqual(['payout (no version) (v2)', 'payout (no version) (v2)']);
    expect(bodies('{"amount":1200,"currency":"eur"}').map((op) => op?.kind === 'publish' && op.body)).toEqual(['{"amount":1201,"currency":"eur"}', '{"amount":1201,"currency":"eur"}']);
  });
});
