import type { JudgeInput, RequestEvidence, TraceLine } from '../evidence.js';
import { incarnationOf } from './cancellation.js';

/**
 * The gate rule cancel and input changes share: a worker must look (at the cancel file, at the
 * input) after its previous write and before each send, and nothing that waits on time — a sleep,
 * a backoff, a 503's wait, a lease poll — may lie between that look and the send. A write that
 * arrives after the change landed is the race the change cannot win only when its sender's last
 * look came after its previous write and before the change, with no wait of its sender between
 * the look and the send. Otherwise it did not look since its previous write (or its start), it
 * looked and then waited (a look at the wrong moment: the change could land during the wait, and
 * did), or it looked, saw the change, and sent anyway.
 */
export type LookVerdict =
  | { kind: 'raced' }
  | { kind: 'unlooked'; previous: number; look?: number }
  | { kind: 'waited'; previous: number; look: number; wait: TraceLine }
  | { kind: 'ignored'; previous: number; look: number };

/** The first wait of a sender strictly between two trace positions, if any. */
export type WaitBetween = (from: number, to: number) => TraceLine | undefined;

/**
 * `post` (a POST that arrived after `landedAt`) judged by `looks` (the trace positions of its
 * sender's looks) and `waitBetween` (its sender's waits on time: `senderWaits`).
 */
export function lookBeforeSend(posts: readonly RequestEvidence[], post: RequestEvidence, looks: readonly number[], landedAt: number, waitBetween: WaitBetween = () => undefined): LookVerdict {
  const seq = post.seq ?? 0;
  const previous = posts.filter((r) => r.sender === post.sender && (r.seq ?? 0) < seq).at(-1)?.seq ?? -1;
  const look = looks.filter((s) => s < seq).at(-1);
  if (look === undefined || look <= previous) return look === undefined ? { kind: 'unlooked', previous } : { kind: 'unlooked', previous, look };
  if (look >= landedAt) return { kind: 'ignored', previous, look };
  const wait = waitBetween(look, seq);
  return wait === undefined ? { kind: 'raced' } : { kind: 'waited', previous, look, wait };
}

/** "since it started" or "since its previous write". */
export const since = (previous: number): string => (previous < 0 ? 'it started' : 'its previous write');

/** A wait in words: "slept 1994ms at #68", "waited on a setTimeout it set, which fired at #70". */ // allow-ambient: names a timer the trace records
export const describeWait = (wait: TraceLine): string => (wait.op === 'clock.sleep' ? `slept ${wait.detail} at #${wait.seq}` : `waited on a ${wait.detail.replace(/ fired$/, '')} it set, which fired at #${wait.seq}`);

/** Timers that fire at once, not after a time: no wait. */
const IMMEDIATE = /Immediate|scheduler\.yield/;

/**
 * A sender's waits on time: a `clock.sleep` of more than 0 ms (env's sleep, one step that lasts
 * the time), and a timer it set firing (setTimeout, setInterval, timers/promises setTimeout, // allow-ambient: names timers the trace records
 * scheduler.wait; not an immediate): its code woken once virtual time moved to it. A timer
 * counts between two positions only when it was set between them too — a heartbeat armed
 * earlier, or a request's abort timer set before the look, is no wait the look came before.
 */
export function senderWaits(input: JudgeInput, sender: string): WaitBetween {
  const lines = input.trace.filter((line) => incarnationOf(line) === sender);
  return (from, to) =>
    lines.find((w, i) => {
      if (w.seq <= from || w.seq >= to) return false;
      if (w.op === 'clock.sleep') return Number.parseInt(w.detail, 10) > 0;
      if (w.op !== 'timer' || IMMEDIATE.test(w.detail)) return false;
      const label = w.detail.replace(/ fired$/, '');
      return lines.slice(0, i).some((set) => set.seq > from && set.op === label);
    });
}
