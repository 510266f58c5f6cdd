/**
 * The clock a journal reads through Node (its now, a Date made without a value, Intl's "now",
 * the performance clock) reads the virtual clock, each read one atomic step (a crash may land between
 * two reads, as between any two calls of a real process; a read from a gone process throws
 * ProcessEnded, so a busy-wait on the clock ends with its process). The performance clock counts from the
 * incarnation's start, as in a fresh process; performance.timeOrigin is that start on the virtual
 * clock (a constant of the process, not a step). The other clocks a process has read the same
 * virtual clock: process.hrtime (and .bigint) and process.uptime from the incarnation's start,
 * Event#timeStamp (when the event was first looked at), performance.mark and measure (with the
 * process's own entries, which getEntries* lists); its CPU is none (process.cpuUsage and
 * resourceUsage answer zeros: virtual time costs nothing).
 */
import { VIRTUAL_EPOCH_MS } from '../../world/clock.js';
import { atomicStep } from '../../world/atomicStep.js';
import type { Served, ServeContext } from './serveContext.js';


/** Virtual milliseconds since the incarnation started: its performance clock. */
const sinceStart = (ctx: ServeContext): number => ctx.world.clock.nowMs - ctx.proc.startedAtMs;

/** A clock read on the performance clock: one atomic step, its value shown. */
function performanceClock(api: string, answer: (ms: number, args: readonly unknown[]) => unknown): Served {
  return (ctx, args) => {
    const ms = sinceStart(ctx);
    return atomicStep(ctx.world, ctx.proc, api, `${ms}ms`, () => answer(ms, args));
  };
}

/** The entry performance.mark and measure give: PerformanceEntry's shape, on the virtual clock. */
interface Entry {
  name: string;
  entryType: 'mark' | 'measure';
  startTime: number;
  duration: number;
  detail: unknown;
  toJSON(): object;
}

function entry(name: string, entryType: Entry['entryType'], startTime: number, duration: number, detail: unknown): Entry {
  const made: Entry = { name, entryType, startTime, duration, detail, toJSON: () => ({ name, entryType, startTime, duration, detail }) };
  return made;
}

/** performance.measure(name, startMark?, endMark?) or (name, { start, end, duration, detail }): its start and end on the process's marks. */
function measured(ctx: ServeContext, now: number, args: readonly unknown[]): Entry {
  const name = String(args[0]);
  const at = (mark: unknown): number | undefined => {
    if (mark === undefined) return undefined;
    if (typeof mark === 'number') return mark;
    const found = [...ctx.proc.performanceEntries].reverse().find((e) => e.entryType === 'mark' && e.name === mark);
    if (!found) throw Object.assign(new SyntaxError(`The "${String(mark)}" performance mark has not been set`), { code: 'ERR_INVALID_PERFORMANCE_MARK' });
    return found.startTime;
  };
  const options = typeof args[1] === 'object' && args[1] !== null ? (args[1] as { start?: unknown; end?: unknown; duration?: number; detail?: unknown }) : undefined;
  const start = options ? (at(options.start) ?? (options.duration !== undefined && options.end !== undefined ? (at(options.end) as number) - options.duration : 0)) : (at(args[1]) ?? 0);
  const end = options ? (at(options.end) ?? (options.duration !== undefined ? start + options.duration : now)) : (at(args[2]) ?? now);
  return entry(name, 'measure', start, end - start, options?.detail ?? null);
}

function wallClock(api: string): Served {
  return (ctx: ServeContext) => {
    const ms = ctx.world.clock.epochMs;
    return atomicStep(ctx.world, ctx.proc, api, new Date(ms).toISOString(), () => ms); // allow-ambient: a Date of a virtual time
  };
}

/** What the clock serves that is no step: constants of the process, its CPU use (none), its own entries. */
export const CLOCK_CONSTANTS: readonly string[] = ['performance.timeOrigin', 'process.cpuUsage', 'process.resourceUsage', 'performance.getEntries', 'performance.getEntriesByName', 'performance.getEntriesByType'];

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
  ['Event.timeStamp', performanceClock('Event.timeStamp', (ms) => ms)],
  [
    'process.hrtime',
    performanceClock('process.hrtime', (ms, args) => {
      const ns = Math.round(ms * 1e6);
      const now: [number, number] = [Math.floor(ns / 1e9), ns % 1e9];
      const before = args[0] as [number, number] | undefined;
      if (!Array.isArray(before)) return now;
      const diff = (now[0] - before[0]) * 1e9 + (now[1] - before[1]);
      return [Math.floor(diff / 1e9), diff % 1e9];
    }),
  ],
  ['process.hrtime.bigint', performanceClock('process.hrtime.bigint', (ms) => BigInt(Math.round(ms * 1e6)))],
  ['process.uptime', performanceClock('process.uptime', (ms) => ms / 1000)],
  ['process.cpuUsage', () => ({ user: 0, system: 0 })],
  ['process.resourceUsage', () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 0, sharedMemorySize: 0, unsharedDataSize: 0, unsharedStackSize: 0, minorPageFault: 0, majorPageFault: 0, swappedOut: 0, fsRead: 0, fsWrite: 0, ipcSent: 0, ipcReceived: 0, signalsCount: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0 })],
  [
    'performance.mark',
    (ctx, args) =>
      performanceClock('performance.mark', (ms) => {
        const options = (args[1] ?? {}) as { startTime?: number; detail?: unknown };
        const made = entry(String(args[0]), 'mark', options.startTime ?? ms, 0, options.detail ?? null);
        ctx.proc.performanceEntries.push(made);
        return made;
      })(ctx, args, undefined),
  ],
  [
    'performance.measure',
    (ctx, args) =>
      performanceClock('performance.measure', (ms) => {
        const made = measured(ctx, ms, args);
        ctx.proc.performanceEntries.push(made);
        return made;
      })(ctx, args, undefined),
  ],
  ['performance.getEntries', (ctx) => [...ctx.proc.performanceEntries]],
  ['performance.getEntriesByName', (ctx, args) => ctx.proc.performanceEntries.filter((e) => e.name === args[0] && (args[1] === undefined || e.entryType === args[1]))],
  ['performance.getEntriesByType', (ctx, args) => ctx.proc.performanceEntries.filter((e) => e.entryType === args[0])],
];
