/**
 * The gate rule, end to end: a look at what gates a send (the cancel file, the planned input's
 * version) counts only when no wait on time lies between it and the send. A journal that looks
 * before a 503's wait and sends after it, once the cancel or the change landed during the wait, is
 * caught; the reference and the coordinated journal look again after every wait, and pass the same
 * scenarios.
 */
import { describe, expect, test } from 'vitest';
import type { PublishOperation } from '../model/contract/contract.js';
import { judge } from '../model/judge.js';
import { CoordinatedRun, coordinatedJournalFrom, coordinatedJournal } from '../src/journals/coordinated.js';
import { journalFrom, ReferenceRun, referenceJournal, type Intent } from '../src/journals/reference.js';
import { parseScenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';

/** Main's reference before the gate rule: the cancel and the budget looked at, then a 503's wait, then the input read and the send. */
class LooksBeforeTheWait extends ReferenceRun {
  protected override async gateOpen(op: PublishOperation, intent: Intent): Promise<boolean> {
    if (await this.cancelSeen()) {
      await this.stopForCancel(op.key, intent);
      return false;
    }
    if (await this.budgetSpent(op.key, intent)) return false;
    await this.waitAsAsked(op.key);
    return this.inputFresh(op, intent);
  }

  protected async inputFresh(op: PublishOperation, intent: Intent): Promise<boolean> {
    const stale = await this.inputStale(this.plannedFrom(op));
    if (stale !== undefined) await this.record({ key: op.key, state: 'blocked', digest: intent.digest, reason: stale });
    return stale === undefined;
  }
}

/** Reads the input its node was planned from, then waits out a 503's wait, then sends. */
class ReadsBeforeTheWait extends LooksBeforeTheWait {
  protected override async gateOpen(op: PublishOperation, intent: Intent): Promise<boolean> {
    if (await this.cancelSeen()) return false;
    if (!(await this.inputFresh(op, intent))) return false;
    await this.waitAsAsked(op.key);
    return true;
  }
}

const looksBeforeTheWait = journalFrom('looks-before-the-wait', (env, task) => new LooksBeforeTheWait(env, task));
const readsBeforeTheWait = journalFrom('reads-before-the-wait', (env, task) => new ReadsBeforeTheWait(env, task));

const input = { resource: 'config', version: 'v1' };
const unavailable = { kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'unavailable', retryAfterMs: 5000 };
const scenario = (faults: unknown[], withInput = false) =>
  parseScenario({ format: 'durasim.scenario', version: 3, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1', ...(withInput ? { input } : {}) }] }, service: { resources: { config: 'v1' } }, faults });
type Journal = Parameters<typeof simulate>[0];

/** The global step of the journal's 503 wait (its sleep of more than a second) in the run of `faults`: a change placed there lands after every look before the wait. */
async function waitStep(journal: Journal, faults: unknown[], withInput = false): Promise<number> {
  const result = await simulate(journal, scenario(faults, withInput));
  const wait = result.trace.find((line) => line.op === 'clock.sleep' && Number.parseInt(line.detail, 10) > 1000);
  if (wait?.globalStep === undefined) throw new Error('the run has no 503 wait');
  return wait.globalStep;
}

/** The run with `change` landing just before the journal's 503 wait: its violations, and its POSTs after the change. */
async function withChangeInTheWait(journal: Journal, change: Record<string, unknown>, withInput = false): Promise<{ codes: string[]; actual: string[] }> {
  const cancelFile = change.kind === 'cancel' ? [{ kind: 'cancel', atStep: 100_000 }] : [];
  const atStep = await waitStep(journal, [unavailable, ...cancelFile], withInput);
  const violations = judge(await simulate(journal, scenario([unavailable, { ...change, atStep }], withInput)));
  return { codes: violations.map((v) => v.code), actual: violations.map((v) => v.actual) };
}

describe('a cancel that lands during a 503 wait', () => {
  test('caught when the journal looked at the cancel file before the wait and sent after it', async () => {
    const { codes, actual } = await withChangeInTheWait(looksBeforeTheWait, { kind: 'cancel' });
    expect(codes).toEqual(['no-effect-after-cancel']);
    expect(actual[0]).toMatch(/^worker-0#0 looked at task-1\.cancel at #\d+, then slept \d+ms at #\d+ \(the cancel landed meanwhile\), and sent request #\d+ \(POST post-a\) without looking again$/);
  });

  test('the reference waits first and looks after the wait: clean, and nothing sent after the cancel', async () => {
    const atStep = await waitStep(referenceJournal, [unavailable, { kind: 'cancel', atStep: 100_000 }]);
    const result = await simulate(referenceJournal, scenario([unavailable, { kind: 'cancel', atStep }]));
    expect(judge(result)).toEqual([]);
    expect(result.requests.filter((r) => r.method === 'POST').length).toBe(1);
  });
});

describe('an input that changes during a 503 wait', () => {
  test('caught when the journal read the input before the wait and sent the old plan after it', async () => {
    const { codes, actual } = await withChangeInTheWait(readsBeforeTheWait, { kind: 'input-change', resource: 'config', value: 'v2' }, true);
    expect(codes).toEqual(['version-change-pauses']);
    expect(actual[0]).toMatch(/^worker-0#0 read config at #\d+, then slept \d+ms at #\d+ \(the change landed meanwhile\), and sent request #\d+ without reading it again$/);
  });

  test('the reference reads it after the wait and pauses the node: clean', async () => {
    expect((await withChangeInTheWait(referenceJournal, { kind: 'input-change', resource: 'config', value: 'v2' }, true)).codes).toEqual([]);
  });
});

describe('the coordinated journal: a store retry that waits between the gate and the POST', () => {
  /** The coordinated journal without its look again after a store retry's wait. */
  class NoLookAfterRetry extends CoordinatedRun {
    protected override async stillOpen(): Promise<undefined> {
      return undefined;
    }
  }
  const noLookAfterRetry = coordinatedJournalFrom('no-look-after-retry', (env, task) => new NoLookAfterRetry(env, task));
  /** The renewal right before post-a's POST times out (store call 9); the worker backs off and asks again; the cancel lands then. */
  const faults = (atStep: number) => [{ kind: 'store-call', call: 9, fault: 'timeout-before-apply' }, { kind: 'cancel', atStep }];

  test('caught without the look again; the coordinated journal looks again after the retry and sends nothing', async () => {
    const wait = await simulate(coordinatedJournal, scenario(faults(100_000)));
    const sleep = wait.trace.find((line) => line.op === 'clock.sleep');
    expect(sleep?.globalStep).toBeDefined();
    const atStep = (sleep?.globalStep as number) + 1;
    expect(judge(await simulate(noLookAfterRetry, scenario(faults(atStep)))).map((v) => v.code)).toEqual(['no-effect-after-cancel']);
    const result = await simulate(coordinatedJournal, scenario(faults(atStep)));
    expect(judge(result)).toEqual([]);
    expect(result.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
