import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * routed-requests: every request the journal sends reaches the service, on a route it has. A
 * request to another host never reaches it (the simulated network fails it as an unknown host), and
 * one to a path or method no route of the service takes is answered 404 and commits nothing: a run
 * whose requests went nowhere proves nothing about the journal, so it is never clean in silence.
 * A contract's routes out of scope (`outOfScope`) are no finding. Each kind is reported once per
 * method and path (or host), at its first request, with how many there were.
 */
export function checkRoutedRequests(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const unrouted = new Map<string, { first: (typeof input.requests)[number]; count: number }>();
  for (const request of input.requests) {
    if (request.route.kind !== 'unknown') continue;
    const id = `${request.method} ${request.path ?? ''}`;
    const seen = unrouted.get(id);
    if (seen) seen.count++;
    else unrouted.set(id, { first: request, count: 1 });
  }
  for (const [id, { first, count }] of unrouted) {
    violations.push({
      code: 'routed-requests',
      key: '',
      step: first.seq ?? 0,
      expected: 'every request on a route the service has (its contract, or durasim\'s own protocol: POST and GET /operations/:key, GET /resources/:name)',
      actual: `${count === 1 ? 'a request' : `${count} requests`} to ${id.trim()}, which no route takes (answered ${first.wireStatus ?? first.status}, nothing committed)${first.sender ? `, the first from ${first.sender}` : ''}`,
      evidence: { request: first.index, count, route: id.trim() },
    });
  }
  const strays = new Map<string, { first: NonNullable<JudgeInput['strayRequests']>[number]; count: number }>();
  for (const stray of input.strayRequests ?? []) {
    let host = stray.url;
    try {
      host = new URL(stray.url).origin;
    } catch {
      // not a URL: named as it was given
    }
    const seen = strays.get(host);
    if (seen) seen.count++;
    else strays.set(host, { first: stray, count: 1 });
  }
  for (const [host, { first, count }] of strays) {
    violations.push({
      code: 'routed-requests',
      key: '',
      step: first.seq,
      expected: `every request to the service, at ${input.serviceUrl ?? 'its url'} (the url the task names)`,
      actual: `${count === 1 ? 'a request' : `${count} requests`} to ${host}, another host (${first.method} ${first.url}${first.sender ? `, the first from ${first.sender}` : ''}): it never reached the service`,
      evidence: { url: first.url, count, host },
    });
  }
  return violations;
}
