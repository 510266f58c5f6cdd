/**
 * The clock a journal reads through Node (its now, a Date made without a value, Intl's "now",
 * the performance clock) reads the virtual clock, each read one atomic step (a crash may land between
 * two reads, as between any two calls of a real process; a read from a gone process throws
 * ProcessEnded, so a busy-wait on the clock ends with its process). The performance clock counts from the
 * incarnation's start, as in a fresh process; performance.timeOrigin is that start on the virtual
 * clock (a constant of the process, not a step).
 */
import { VIRTUAL_EPOCH_MS } from '../../world/clock.js';
import { atomicStep } from '../../world/atomicStep.js';
import type { Served, ServeContext } from './serveContext.js';

function wallClock(api: string): Served {
  return (ctx: ServeContext) => {
    const ms = ctx.world.clock.epochMs;
    return atomicStep(ctx.world, ctx.proc, api, new Date(ms).toISOString(), () => ms); // allow-ambient: a Date of a virtual time
  };
}

export const CLOCK_SERVED: [string, Served][] = [
  ['Date.now', wallClock('Date.now')], // allow-ambient: names what it serves
  ['new Date()', wallClock('new Date()')], // allow-ambient: names what it serves
  ['Date()', wallClock('Date()')],
  ['Intl.DateTimeFormat.format', wallClock('Intl.DateTimeFormat.format')],
  ['Intl.DateTimeFormat.formatToParts', wallClock('Intl.DateTimeFormat.formatToParts')],
  [
    'performance.now', // allow-ambient: names what it serves
    (ctx) => {
      const ms = ctx.world.clock.nowMs - ctx.proc.startedAtMs;
      return atomicStep(ctx.world, ctx.proc, 'performance.now', `${ms}ms`, () => ms); // allow-ambient: names what it serves
    },
  ],
  ['performance.timeOrigin', (ctx) => VIRTUAL_EPOCH_MS + ctx.proc.startedAtMs],
];
