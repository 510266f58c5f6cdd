/**
 * The fake service of a confirmation: the simulator's service core behind a real node:http server,
 * on a clock that follows real time (an accepted write lands commitDelayMs after it was accepted). Each request is stamped with where it came in the
 * trace and who sent it (the worker granted the fetch); a write's arrival keeps the records that
 * were durable then, and — traced — what the disk held only in its page cache, which explains a
 * write sent before its record was safe (as the simulator reports it).
 *
 * Its answers wait in the run's AnswerQueue until the simulation would deliver them.
 */
import type { Records, TraceLine } from '../../model/evidence.js';
import { explainLoss, gapsOf } from '../../simulator/disk/crashReport.js';
import type { ResponseFault, Scenario } from '../../simulator/scenario/scenario.js';
import { describeServiceEvent, ServiceCore, type ServiceRequestRecord } from '../../simulator/service/service.js';
import type { VirtualClock } from '../../simulator/world/clock.js';
import { serveOverHttp } from '../realService.js';
import type { AnswerQueue } from './answerQueue.js';
import type { RealDisk } from './realDisk.js';

/** What a write's arrival kept, as the judge reads it on the request. */
interface Arrival {
  recordsAtArrival: Records;
  unsyncedAtArrival?: string[];
  gapsAtArrival?: ReturnType<typeof gapsOf>;
}

export interface RealServiceRun {
  core: ServiceCore;
  url: string;
  /** The worker whose fetch was granted last: the sender of the next request. */
  sender: string;
  /** The service's requests, each with the records durable at its arrival (writes only). */
  requests(): (ServiceRequestRecord & Partial<Arrival>)[];
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
  /** Where its answers wait until the simulation would deliver them. */
  answers: AnswerQueue;
}): Promise<RealServiceRun> {
  const { scenario, trace, record, realDisk } = on;
  // The service's dates are the real ones (a contract's Retry-After date is read against the real worker's clock).
  const realEpoch = Date.now() - on.clock.nowMs; // allow-ambient: real processes read the real clock
  const clock = { get nowMs() { return on.clock.nowMs; }, get epochMs() { return realEpoch + on.clock.nowMs; }, at: (delayMs: number, label: string, fire: () => void) => on.clock.at(delayMs, label, fire) };
  const core = new ServiceCore({ ...scenario.service, existing: [...scenario.service.existing] }, scenario.faults.filter((f): f is ResponseFault => f.kind === 'response'), clock, (event) => {
    if (event.kind === 'commit') event.effect.seq = trace.length;
    record('service', ...(Object.values(describeServiceEvent(event, scenario.service.idempotencyMemory)) as [string, string]));
  });
  if (on.token !== undefined) core.requireBearer(on.token);
  const arrivals = new Map<number, Arrival>();
  const run: RealServiceRun = {
    core,
    url: '',
    sender: '',
    requests: () => core.requests.map((r) => ({ ...r, ...arrivals.get(r.index) })),
    close: async () => {},
  };
  const hold = (answer: () => void, delayMs: number): void => on.answers.hold(answer, scenario.service.latencyMs, delayMs);
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
        arrivals.set(request.index, loss ? { recordsAtArrival: records, unsyncedAtArrival: explainLoss(loss, on.relName), gapsAtArrival: gapsOf(loss, on.relName) } : { recordsAtArrival: records });
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
    return server.close();
  };
  return run;
}
