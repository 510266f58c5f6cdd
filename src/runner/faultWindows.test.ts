import { describe, expect, test } from 'vitest';
import { simulate } from '../../simulator/simulate.js';
import type { Fault, Scenario, ScenarioStore } from '../../simulator/scenario/scenario.js';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { referenceJournal } from '../journals/reference.js';
import { coordinatedJournal } from '../journals/coordinated.js';
import { baseScenario, featuredScenario, FAULT_KINDS } from '../arbitraries.js';
import { ioShapes } from './stepKind.js';
import { faultWindowLabel, windowName, windowsOf } from './faultWindows.js';
import { windowFaultsAt } from './windowFaults.js';
import { withToward } from './windowGuide.js';

describe('fault windows read from a trace', () => {
  test('a fault-free run hits none, and offers the first step of each kind and owner', async () => {
    const run = await simulate(referenceJournal, baseScenario());
    const windows = windowsOf(run.trace);
    expect(windows.hit).toEqual([]);
    expect(windows.usesStore).toBe(false);
    const post = windows.offered.find((o) => o.kind === 'POST');
    expect(post?.owner).toBe('first');
    expect(post?.point.requests).toEqual([0]);
    expect(new Set(windows.offered.map((o) => `${o.kind}/${o.owner}`)).size).toBe(windows.offered.length);
  });

  test('an I/O error that found no disk call to fail hit nothing', async () => {
    const base = baseScenario();
    const clock = windowsOf((await simulate(referenceJournal, base)).trace).offered.find((o) => o.kind === 'clock');
    expect(clock).toBeDefined();
    const { pid, incarnation, step } = clock?.point ?? { pid: 0, incarnation: 0, step: 0 };
    const run = await simulate(referenceJournal, { ...base, faults: [{ kind: 'io-error', process: pid, incarnation, step, error: 'EIO' }] });
    expect(run.trace.some((e) => e.op === 'io-error' && e.detail.includes('did nothing'))).toBe(true);
    expect(windowsOf(run.trace).hit).toEqual([]);
  });

  // Each fault the guide can aim at a step, placed there, is read back in the window it was aimed at: the
  // names are one vocabulary (faultWindowLabel) and each fault is attributed to the step it struck.
  // A cancel is the exception, and the test says so: a task that can be cancelled is watched for it from
  // its start, so its steps shift and the cancel lands a step or two away from where it was aimed.
  const cases: [string, JournalAdapter, Scenario][] = [
    ['the reference journal, every task feature', referenceJournal, featuredScenario()],
    ['the coordinated journal (the shared store)', coordinatedJournal, baseScenario()],
  ];
  test.each(cases)('every fault aimed at a step strikes its window: %s', async (_name, journal, base) => {
    const windows = windowsOf((await simulate(journal, base)).trace);
    const missed: string[] = [];
    let aimed = 0;
    const families = new Set<string>();
    for (const at of windows.offered) {
      const { pid, incarnation, step } = at.point;
      const faults: { fault: Fault; store?: ScenarioStore; schedule?: number[] }[] = [
        { fault: { kind: 'crash', process: pid, incarnation, step, when: 'after', mode: 'keep-all' } },
        { fault: { kind: 'crash', process: pid, incarnation, step, when: 'after', mode: 'lose-unsynced' } },
        ...ioShapes(at.kind).map((shape) => ({ fault: { kind: 'io-error' as const, process: pid, incarnation, step, ...shape } })),
        ...windowFaultsAt(at.point, { base, families: new Set(FAULT_KINDS), usesStore: windows.usesStore }),
      ];
      for (const f of faults) {
        const label = faultWindowLabel(f.fault);
        const window = windowName(label, at.kind, at.owner);
        const hit = windowsOf((await simulate(journal, withToward(base, { parent: 0, fault: f.fault, ...(f.store ? { store: f.store } : {}), ...(f.schedule ? { schedule: f.schedule } : {}), window }))).trace).hit;
        aimed++;
        families.add(f.fault.kind);
        if (label === 'user cancel') expect(hit.some((w) => w.startsWith('user cancel @ '))).toBe(true);
        else if (!hit.includes(window)) missed.push(`${window} (hit: ${hit.join('; ')})`);
      }
    }
    expect(missed).toEqual([]);
    expect(aimed).toBeGreaterThan(150);
    expect(families.size).toBeGreaterThanOrEqual(9);
  });
});
