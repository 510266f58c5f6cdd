import { describe, expect, test } from 'vitest';
import type { Records } from './evidence.js';
import { HistoryObserver } from './observedHistory.js';

const current = (state: string): Records => ({ a: { kind: 'operation', history: [state], reported: 'state' } });
const recorded = (...history: string[]): Records => ({ a: { kind: 'operation', history } });
const states = (observer: HistoryObserver): string[] => (observer.observed.a ?? []).map((o) => `${o.state}@${o.seq}${o.image === 'visible' ? 'v' : ''}`);

describe('HistoryObserver', () => {
  test('builds the sequence of a current-state journal from successive durable snapshots, folding repeats', () => {
    const observer = new HistoryObserver();
    observer.observe(current('authorized'), 1, 'durable');
    observer.observe(current('authorized'), 2, 'durable');
    observer.observe(current('dispatched'), 3, 'durable');
    observer.observe(current('succeeded'), 7, 'durable');
    expect(states(observer)).toEqual(['authorized@1', 'dispatched@3', 'succeeded@7']);
  });

  test('takes the new states of a recorded history past what was already seen', () => {
    const observer = new HistoryObserver();
    observer.observe(recorded('authorized', 'dispatched'), 4, 'durable');
    observer.observe(recorded('authorized', 'dispatched', 'outcome_unknown', 'reconciling'), 9, 'durable');
    expect(states(observer)).toEqual(['authorized@4', 'dispatched@4', 'outcome_unknown@9', 'reconciling@9']);
  });

  test('a process kill shows what the next incarnation reads; a durable image lagging behind it adds nothing', () => {
    const observer = new HistoryObserver();
    observer.observe(current('authorized'), 1, 'durable');
    observer.observe(current('dispatched'), 5, 'visible'); // written, not yet fsynced, read by the next incarnation
    observer.observe(current('authorized'), 6, 'durable'); // unchanged durable image: no step back
    observer.observe(current('reconciling'), 8, 'durable');
    expect(states(observer)).toEqual(['authorized@1', 'dispatched@5v', 'reconciling@8']);
  });

  test('a machine crash takes back what was only visible', () => {
    const observer = new HistoryObserver();
    observer.observe(current('authorized'), 1, 'durable');
    observer.observe(current('dispatched'), 5, 'visible');
    observer.machineCrash();
    observer.observe(current('authorized'), 9, 'durable');
    observer.observe(current('dispatched'), 12, 'durable');
    expect(states(observer)).toEqual(['authorized@1', 'dispatched@12']);
  });

  test('a record that existed and is gone is observed as absent', () => {
    const observer = new HistoryObserver();
    observer.observe(current('succeeded'), 1, 'durable');
    observer.observe({}, 3, 'durable');
    observer.observe({}, 4, 'durable');
    expect(states(observer)).toEqual(['succeeded@1', 'absent@3']);
  });
});

describe('HistoryObserver and machine crashes', () => {
  test('a state first seen visible and later found on the durable image survives a machine crash', () => {
    const observer = new HistoryObserver();
    observer.observe(recorded('authorized'), 54, 'visible'); // a process kill: in the page cache only
    observer.observe({}, 58, 'durable');
    observer.observe(recorded('authorized'), 66, 'durable'); // the next incarnation's fsync made it durable
    observer.machineCrash();
    observer.observe(recorded('authorized', 'dispatched'), 86, 'durable');
    expect(states(observer)).toEqual(['authorized@54v', 'dispatched@86']);
  });

  test('what a machine crash kept of the page cache anyway (per-file, torn) is the observation from before the crash, not a new one', () => {
    const observer = new HistoryObserver();
    observer.observe(recorded('authorized', 'dispatched'), 20, 'durable');
    observer.observe(recorded('authorized', 'dispatched', 'succeeded'), 27, 'visible'); // a process kill after the unsynced append
    observer.machineCrash(); // the next incarnation dies in a machine crash that keeps that append
    observer.observe(recorded('authorized', 'dispatched', 'succeeded'), 31, 'durable');
    expect(states(observer)).toEqual(['authorized@20', 'dispatched@20', 'succeeded@27v']);
  });

  test('watches receipts: once durable, the first later snapshot without it is noted, once per key', () => {
    const receipt = (history: string[], r?: string): Records => ({ a: { kind: 'operation', history, ...(r !== undefined ? { receipt: r } : {}) } });
    const observer = new HistoryObserver();
    observer.observe(receipt(['authorized', 'dispatched', 'succeeded'], 'rcpt-1'), 5, 'visible'); // only visible: not held yet
    expect(observer.receiptLosses).toEqual([]);
    observer.observe(receipt(['authorized', 'dispatched', 'succeeded'], 'rcpt-1'), 6, 'durable');
    observer.observe(receipt(['authorized', 'dispatched', 'succeeded'], 'rcpt-1'), 8, 'visible');
    expect(observer.receiptLosses).toEqual([]);
    observer.observe(receipt(['succeeded']), 9, 'visible'); // a compaction in the page cache drops it
    observer.observe({}, 12, 'durable');
    expect(observer.receiptLosses).toEqual([{ key: 'a', receipt: 'rcpt-1', heldSeq: 6, seq: 9, image: 'visible', now: null }]);
    const gone = new HistoryObserver();
    gone.observe(receipt(['succeeded'], 'rcpt-1'), 3, 'durable');
    gone.observe({}, 4, 'durable');
    expect(gone.receiptLosses).toEqual([{ key: 'a', receipt: 'rcpt-1', heldSeq: 3, seq: 4, image: 'durable' }]);
  });

  test('keeps the journal\'s own words beside each state; the same state in other words (a sub-state) joins its words, each once', () => {
    const own = (state: string, name: string): Records => ({ a: { kind: 'operation', history: [state], names: [name], reported: 'state' } });
    const observer = new HistoryObserver();
    observer.observe(own('dispatched', 'sending'), 1, 'durable');
    observer.observe(own('outcome_unknown', 'timeout'), 3, 'durable');
    observer.observe(own('outcome_unknown', 'retry_wait'), 5, 'durable');
    observer.observe(own('outcome_unknown', 'timeout'), 7, 'durable');
    observer.observe(own('reconciling', 'checking'), 9, 'durable');
    expect(observer.observed.a?.map((o) => `${o.state}@${o.seq} ${o.name}`)).toEqual(['dispatched@1 sending', 'outcome_unknown@3 timeout/retry_wait', 'reconciling@9 checking']);
  });
});
