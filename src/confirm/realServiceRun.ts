/**
 * The fake service of a confirmation: the simulator's service core behind a real node:http server,
 * on a clock that follows real time (an accepted write lands commitDelayMs after it was accepted). Each request is stamped with where it came in the
 * trace and who sent it (the worker granted the fetch); a write's arrival keeps the records that
 * were durable then, and — traced — what the disk held only in its page cache, which explains a
 * write sent before its record was safe (as the simulator reports it).
 *
 * Answers come when the simulation's would: there, a response arrives latencyMs (plus a delay
 * fault's) later in virtual time, and virtual time moves only when no worker can take a step — so
 * another call or worker that can go on goes first. Here every answer is held until the parent
 * finds every worker blocked with no step asked for (releaseOne), then those due first go out
 * together (one virtual instant at a time); a delayed one also waits out its delay in real time (the journal's own timeouts
 * are real timers).
 */
import type { Records, TraceLine } from '../../model/evidence.js';
import { explainLoss, gapsOf } from '../../simulator/disk/crashReport.js';
import type { ResponseFault, Scenario } from '../../simulator/scenario/scenario.js';
import { describeServiceEvent, ServiceCore, type ServiceRequestRecord } from '../../simulator/service/service.js';
import type { VirtualClock } from '../../simulator/world/clock.js';
import { serveOverHttp } from '../realService.js';
import type { RealDisk } from './realDisk.js';

interface Arrival {
  records: Records;
  unsynced?: string[];
  gaps?: ReturnType<typeof gapsOf>;
}

interface HeldAnswer {
  /** When the simulation would deliver it: virtual time at its arrival, plus latency and delay. */
  dueMs: number;
  order: number;
  /** performance.now() before which it may not go (its delay, in real time). */
  readyAtMs: number;
  answer: () => void;
}

export interface RealServiceRun {
  /**
   * Every worker is blocked and none asks for a step: the held answers due first go out (true), or
   * none is held (false), or the one due first is still waiting out its delay (false; `wake` is
   * called when it may go).
   */
  releaseOne(): boolean;
  core: ServiceCore;
  url: string;
  /** The worker whose fetch was granted last: the sender of the next request. */
  sender: string;
  /** The service's requests, each with the records durable at its arrival (writes only). */
  requests(): (ServiceRequestRecord & { recordsAtArrival?: Records; unsyncedAtArrival?: string[]; gapsAtArrival?: ReturnType<typeof gapsOf> })[];
  close(): Promise<void>;
}

export async function serveScenarioService(on: {
  scenario: Scenario;
  clock: VirtualClock;
  /** When the run started (performance.now()): the clock's zero. */
  started: number;
  trace: TraceLine[];
  record: (actor: string, op: string, detail: unknown) => void;
  realDisk: RealDisk | undefined;
  /** The records that would survive a machine crash now. */
  inspectDurable: () => Records;
  /** A path of the work folder as the journal names it. */
  relName: (path: string) => string;
  token: string | undefined;
  /** Called when a held answer has waited out its delay, or one was held: the parent looks whether it can go. */
  wake: () => void;
}): Promise<RealServiceRun> {
  const { scenario, trace, record, realDisk } = on;
  const core = new ServiceCore({ ...scenario.service, existing: [...scenario.service.existing] }, scenario.faults.filter((f): f is ResponseFault => f.kind === 'response'), on.clock, (event) => {
    if (event.kind === 'commit') event.effect.seq = trace.length;
    record('service', ...(Object.values(describeServiceEvent(event, scenario.service.idempotencyMemory)) as [string, string]));
  });
  if (on.token !== undefined) core.requireBearer(on.token);
  const arrivals = new Map<number, Arrival>();
  const held: HeldAnswer[] = [];
  let virtualMs = 0;
  let order = 0;
  let wakeAt: ReturnType<typeof setTimeout> | undefined;
  const run: RealServiceRun = {
    releaseOne: () => {
      if (held.length === 0) return false;
      held.sort((a, b) => a.dueMs - b.dueMs || a.order - b.order);
      const first = held[0] as HeldAnswer;
      const waitMs = first.readyAtMs - performance.now();
      if (waitMs > 0) {
        if (wakeAt === undefined) wakeAt = setTimeout(() => ((wakeAt = undefined), on.wake()), Math.ceil(waitMs));
        return false;
      }
      // Every answer due at that virtual instant goes out: the simulation fires them together, then the workers run.
      virtualMs = Math.max(virtualMs, first.dueMs);
      const now = performance.now();
      const due = held.filter((h) => h.dueMs === first.dueMs && h.readyAtMs <= now);
      for (const h of due) held.splice(held.indexOf(h), 1);
      for (const h of due) h.answer();
      return true;
    },
    core,
    url: '',
    sender: '',
    requests: () =>
      core.requests.map((r) => {
        const arrival = arrivals.get(r.index);
        return { ...r, ...(arrival ? { recordsAtArrival: arrival.records } : {}), ...(arrival?.unsynced ? { unsyncedAtArrival: arrival.unsynced } : {}), ...(arrival?.gaps ? { gapsAtArrival: arrival.gaps } : {}) };
      }),
    close: async () => {},
  };
  const latencyMs = scenario.service.latencyMs;
  const hold = (answer: () => void, delayMs: number): void => {
    held.push({ dueMs: virtualMs + latencyMs + delayMs, order: order++, readyAtMs: performance.now() + delayMs, answer });
    queueMicrotask(on.wake); // after the request's own bookkeeping
  };
  const server = await serveOverHttp(core, (method, reply) => {
    const request = core.requests[core.requests.length - 1];
    if (request) {
      request.seq = trace.length;
      request.sender = run.sender;
      if (reply.deliver === 'respond') request.answered = true;
      if (request.route.kind !== 'query') {
        const records = on.inspectDurable();
        // A write that arrives before its record is durable: what the disk holds only in its page cache explains why (as simulated).
        const key = request.route.kind === 'publish' ? (request.route as { key?: string }).key : undefined;
        const loss = realDisk && key !== undefined && records[key]?.history.at(-1) !== 'dispatched' ? realDisk.disk.lossIfCrashedNow() : undefined;
        arrivals.set(request.index, loss ? { records, unsynced: explainLoss(loss, on.relName), gaps: gapsOf(loss, on.relName) } : { records });
      }
      record('service', 'receive', `#${request.index} ${method} → ${request.status}${request.fault ? ` [${request.fault}]` : ''}`);
    }
    return 'respond';
  }, 'held', hold);
  const ticks = setInterval(() => {
    const nowMs = performance.now() - on.started;
    for (let due = on.clock.nextDueMs(); due !== undefined && due <= nowMs; due = on.clock.nextDueMs()) for (const timer of on.clock.advance()) timer.fire();
    on.clock.nowMs = Math.max(on.clock.nowMs, nowMs); // what the service schedules next counts from now
  }, 5).unref();
  run.url = server.url;
  run.close = () => {
    clearInterval(ticks);
    clearTimeout(wakeAt);
    return server.close();
  };
  return run;
}
