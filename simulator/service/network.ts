/**
 * Network: env.fetch's path to the fake service, in-process, no sockets.
 *
 * Rules:
 * - Only the fake service's origin is reachable; any other URL fails like an unknown host.
 * - Transport 'msw' dispatches through msw's getResponse over the service handlers, and the client
 *   gets what msw answered (status, headers, body); 'direct' routes the same requests to the same
 *   core without msw (faster). Properties hold the two to identical traces, requests and effects:
 *   properties/determinism.test.ts for durasim's own protocol, examples/contracts/transports.test.ts
 *   under the presets' contracts, and network.test.ts to the same answers under each preset.
 * - The service acts when the request arrives; the reply's delivery (drop, delay, cut body) is
 *   carried out by the caller in virtual time.
 */
import type { RequestHandler } from 'msw';
import { invariant } from '../invariant.js';
import { credentialHeaders, credentialsOf, routeOf, type RequestCredentials, type ServiceCore, type ServiceReply, type ServiceRoute } from './service.js';
import { textResponse } from './textResponse.js';
import { NULL_BODY_STATUSES } from './serviceTypes.js';
import { handlersWith, type Msw } from './mswHandlers.js';
import { contractRoute, keyOutsidePath } from './contractRoute.js';

export type Transport = 'direct' | 'msw';

/** msw, loaded only for a run on the msw transport: importing it costs about 200 ms of CPU, in every thread that does. */
let msw: (Msw & Pick<typeof import('msw'), 'getResponse'>) | undefined;

/** Loads msw for the msw transport (simulate() calls it before such a run). */
export async function loadMsw(): Promise<void> {
  msw ??= await import('msw');
}

export interface SentRequest {
  method: string;
  url: string;
  route: ServiceRoute;
  body: string;
  /** The x-fencing-token header (when it holds a whole number) and the authorization header. */
  credentials: RequestCredentials;
  /** Every header the request carried (a contract's key may travel in one). */
  headers: Headers;
}


export class UnreachableHostError extends TypeError {
  constructor(url: string, serviceUrl: string) {
    super(`fetch failed: ${url} is unreachable; the simulated network reaches only ${serviceUrl}`);
    this.name = 'TypeError';
  }
}

/** What makes the msw transport's request handlers over a core: the fake service's own (mswHandlers.ts) unless a test hands in others. */
export type HandlersOf = typeof handlersWith;

export class Network {
  private handlers: RequestHandler[] | undefined;
  private lastReply: ServiceReply | undefined;

  constructor(
    private readonly core: ServiceCore,
    readonly serviceUrl: string,
    private readonly transport: Transport,
    private readonly handlersOf: HandlersOf = handlersWith,
  ) {}

  /** Reads the request without sending it (so the caller can record it and check the origin). */
  async read(input: string | URL | Request, init: RequestInit | undefined): Promise<SentRequest> {
    if (typeof input === 'string' || input instanceof URL) {
      const url = String(input);
      const method = (init?.method ?? 'GET').toUpperCase();
      const rawBody = init?.body;
      const body = rawBody === undefined || rawBody === null ? '' : typeof rawBody === 'string' ? rawBody : await new Request(url, { method, body: rawBody }).text();
      const headers = new Headers(init?.headers);
      return { method, url, route: this.route(method, url, headers, body), body, credentials: credentialsOf(headers), headers };
    }
    const request = init ? new Request(input, init) : input;
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? '' : await request.clone().text();
    return { method, url: request.url, route: this.route(method, request.url, request.headers, body), body, credentials: credentialsOf(request.headers), headers: request.headers };
  }

  /**
   * Under a contract whose key travels outside the path, the key a request names, read at once
   * where that can be done without reading a stream (a string or URL with a string body): a step's
   * trace line names it, so a fault anchored to a key's mentions finds its request.
   */
  keyHint(input: string | URL | Request, init: RequestInit | undefined): string | undefined {
    const contract = this.core.face?.contract;
    if (!contract || input instanceof Request) return undefined;
    const url = String(input);
    return this.reachable(url) ? keyOutsidePath(contract, url, init) : undefined;
  }

  reachable(url: string): boolean {
    return url === this.serviceUrl || url.startsWith(`${this.serviceUrl}/`);
  }

  /** Delivers the request to the service and returns its reply. */
  async send(request: SentRequest): Promise<ServiceReply> {
    if (this.transport === 'direct') return this.core.receive(request.method, request.route, request.body, request.credentials);
    invariant(msw !== undefined, 'the msw transport was used before loadMsw()');
    this.handlers ??= this.handlersOf(msw, this.core, this.serviceUrl, (reply) => {
      this.lastReply = reply;
    });
    this.lastReply = undefined;
    // Under a contract every header goes (its key may travel in one); durasim's own protocol reads only the credentials.
    const init: RequestInit = { method: request.method, headers: this.core.face ? request.headers : credentialHeaders(request.credentials) };
    if (request.method !== 'GET' && request.method !== 'HEAD') init.body = request.body;
    const response = await msw.getResponse(this.handlers, new Request(request.url, init));
    const reply = this.lastReply as ServiceReply | undefined;
    if (!response || !reply) throw new Error(`msw handlers gave no response for ${request.method} ${request.url}`);
    // What the client sees is what msw answered — its status, its headers, its body; the core's reply adds only the delivery decision.
    return { ...reply, status: response.status, headers: headersOf(response.headers), body: await response.text() };
  }

  private route(method: string, url: string, headers: Headers, body: string): ServiceRoute {
    if (!this.reachable(url)) return { kind: 'unknown' };
    const contract = this.core.face?.contract;
    return contract ? contractRoute(contract, method, url, headers, body) : routeOf(method, new URL(url).pathname);
  }
}

/** Headers as a plain object (lower-case names, as Headers keeps them). */
export function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The Response the client sees for a reply: its body a text (textResponse.ts); a cut body errors after its first half. */
export function responseOf(reply: ServiceReply): Response {
  const headers = { 'content-type': 'application/json', ...reply.headers };
  // As fetch gives it: a 204, 205 or 304 has no body (so none to cut), whatever the service said.
  if (NULL_BODY_STATUSES.has(reply.status)) return new Response(null, { status: reply.status, headers });
  if (!reply.cut) return textResponse(reply.body, { status: reply.status, headers });
  const bytes = new TextEncoder().encode(reply.body);
  // The first half arrives; the next read finds the connection gone (a reader sees the half first).
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new TypeError('terminated: the response body was cut mid-read'));
      sent = true;
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
  });
  return new Response(stream, { status: reply.status, headers });
}
