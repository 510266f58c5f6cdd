/**
 * The fake service's HTTP face, given msw: request handlers over a ServiceCore. Rules: the handlers
 * hold no state of their own; each request is routed to the core, whose reply (status, body, and
 * the delivery decision a real network would make: drop, delay, cut) is handed to `onReply` and
 * returned as an HttpResponse. msw comes in as an argument: the simulator loads it only for a run on
 * the msw transport (network.ts), and serviceHandlers.ts hands in the one a user's setup imports.
 */
import type { RequestHandler } from 'msw';
import { credentialsOf, type ServiceCore, type ServiceReply, type ServiceRoute } from './service.js';
import { contractRoute } from './contractRoute.js';
import { NULL_BODY_STATUSES } from './serviceTypes.js';

/** What of msw the handlers use. */
export type Msw = Pick<typeof import('msw'), 'http' | 'HttpResponse'>;

export function handlersWith(msw: Msw, core: ServiceCore, baseUrl: string, onReply: (reply: ServiceReply) => void = () => {}): RequestHandler[] {
  const { http, HttpResponse } = msw;
  const respond = async (request: Request, route: ServiceRoute | ((body: string) => ServiceRoute)): Promise<Response> => {
    const body = request.method === 'POST' || (typeof route === 'function' && request.method !== 'GET' && request.method !== 'HEAD') ? await request.text() : '';
    const reply = core.receive(request.method, typeof route === 'function' ? route(body) : route, body, credentialsOf(request.headers));
    onReply(reply);
    return new HttpResponse(NULL_BODY_STATUSES.has(reply.status) ? null : reply.body, { status: reply.status, headers: { 'content-type': 'application/json', ...reply.headers } });
  };
  // Under a contract, every request goes to its routes (contractRoute.ts), whatever its path.
  const contract = core.face?.contract;
  if (contract) return [http.all(`${baseUrl}/*`, ({ request }) => respond(request, (body) => contractRoute(contract, request.method, request.url, request.headers, body)))];
  const id = (value: string | readonly string[] | undefined): string => (Array.isArray(value) ? value.join('/') : String(value));
  return [
    http.post(`${baseUrl}/operations/:key`, ({ request, params }) => respond(request, { kind: 'publish', key: id(params.key) })),
    http.get(`${baseUrl}/operations/:key`, ({ request, params }) => respond(request, { kind: 'query', key: id(params.key) })),
    http.get(`${baseUrl}/resources/:name`, ({ request, params }) => respond(request, { kind: 'resource', name: id(params.name) })),
    http.all(`${baseUrl}/*`, ({ request }) => respond(request, { kind: 'unknown' })),
  ];
}
