/**
 * The requests of a check's runs that reached nothing (routed-requests): to no route of the
 * service, or to another host. Said on the first screen and at the top of report.md whenever there
 * were any, whatever was judged: a run whose requests went nowhere proves nothing.
 */
import { count } from './count.js';

export function astrayLine(work: { unroutedRequests?: number; strayRequests?: number; runsAstray?: number } | undefined): string | undefined {
  if (work?.runsAstray === undefined) return undefined;
  return `requests that reached nothing: ${count(work.unroutedRequests ?? 0, 'request')} to no route of the service, ${count(work.strayRequests ?? 0, 'request')} to another host, in ${count(work.runsAstray, 'run')} (routed-requests)`;
}
