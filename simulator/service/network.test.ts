import fc from 'fast-check';
import { getResponse } from 'msw';
import { describe, expect, test, beforeAll } from 'vitest';
import { VirtualClock } from '../world/clock.js';
import { headersOf, loadMsw, Network, responseOf } from './network.js';
import { DEFAULT_SERVICE, FAILURE_CLASS_FAULTS, RESPONSE_FAULTS, SERVICE_URL, type ResponseFault } from '../scenario/scenario.js';
import type { ServiceContract } from '../contract/contract.js';
import { ServiceCore, type ServiceReply } from './service.js';
import { presetContract } from '../contract/presets.js';
import { handlersWith } from './mswHandlers.js';

// The msw transport loads msw on first use (simulate() does it before a run): the tests here build Networks by hand.
beforeAll(loadMsw);

function pair(faults = [] as ConstructorParameters<typeof ServiceCore>[1]) {
  const make = () => new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: { config: 'v1' } }, faults, new VirtualClock());
  const direct = make();
  const viaMsw = make();
  return { direct, viaMsw, directNet: new Network(direct, SERVICE_URL, 'direct'), mswNet: new Network(viaMsw, SERVICE_URL, 'msw') };
}

/** What the client is handed for a reply (responseOf): its status, headers and body, and how it is delivered. */
async function seen(reply: ServiceReply): Promise<object> {
  const response = responseOf({ ...reply, cut: false });
  return { status: response.status, headers: headersOf(response.headers), body: await response.text(), cut: reply.cut, deliver: reply.deliver, delayMs: reply.delayMs };
}

describe('Network', () => {
  test('msw and direct transports give the same replies and the same effects', async () => {
    const { direct, viaMsw, directNet, mswNet } = pair([{ kind: 'response', request: 2, fault: 'wrong-digest' }]);
    const calls: [string, RequestInit | undefined][] = [
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'one' }],
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'one' }],
      [`${SERVICE_URL}/operations/a`, undefined],
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'two' }],
      [`${SERVICE_URL}/resources/config`, undefined],
      [`${SERVICE_URL}/nowhere`, undefined],
    ];
    for (const [url, init] of calls) {
      const a = await directNet.send(await directNet.read(url, init));
      const b = await mswNet.send(await mswNet.read(url, init));
      expect(await seen(b)).toEqual(await seen(a));
    }
    expect(viaMsw.effects).toEqual(direct.effects);
  });

  // Shown failing before the fix: the msw transport handed the client the core's headers (retry-after: 5, no x-answered-by), whatever msw answered.
  test('the msw transport hands the client what msw answered: its status, its headers and its body', async () => {
    const url = 'https://api.payouts.example';
    const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: {}, contract: { ...(presetContract('payments') as NonNullable<ReturnType<typeof presetContract>>), url } }, [{ kind: 'response', request: 0, fault: 'unavailable', retryAfterMs: 5000 }], new VirtualClock());
    // Handlers that change the service's answer on its way out, as a defect of the msw path would.
    const network = new Network(core, url, 'msw', (msw, handlerCore, baseUrl, onReply) => [
      msw.http.all(`${baseUrl}/*`, async ({ request }) => {
        const answered = await getResponse(handlersWith(msw, handlerCore, baseUrl, onReply), request);
        const headers = new Headers(answered?.headers);
        headers.delete('retry-after');
        headers.set('x-answered-by', 'msw');
        return new msw.HttpResponse(`${await answered?.text()} `, { status: 502, headers });
      }),
    ]);
    const reply = await network.send(await network.read(`${url}/v1/payouts`, { method: 'POST', headers: { 'Idempotency-Key': 'k' }, body: '{"amount":1}' }));
    expect(core.requests.map((r) => r.status)).toEqual([503]);
    const client = responseOf(reply);
    expect(client.status).toBe(502);
    expect(client.headers.get('retry-after')).toBeNull();
    expect(client.headers.get('x-answered-by')).toBe('msw');
    expect(await client.text()).toMatch(/"api_error".* $/);
  });

  test('a Request object is read like a url and init', async () => {
    const { directNet } = pair();
    const sent = await directNet.read(new Request(`${SERVICE_URL}/operations/k`, { method: 'POST', body: 'payload' }), undefined);
    expect(sent).toMatchObject({ method: 'POST', route: { kind: 'publish', key: 'k' }, body: 'payload' });
  });

  test('only the fake service is reachable', () => {
    const { directNet } = pair();
    expect(directNet.reachable(`${SERVICE_URL}/operations/a`)).toBe(true);
    expect(directNet.reachable('http://service.durasim.evil/x')).toBe(false);
    expect(directNet.reachable('https://example.com/')).toBe(false);
  });

  // Shown failing before the fix: a 205 handed the client the body the service said (and, cut, threw "Invalid response status code 205").
  test('a 204, 205 or 304 reaches the client without a body, as fetch gives it, cut or not', async () => {
    for (const status of [204, 205, 304]) {
      for (const cut of [false, true]) {
        const response = responseOf({ status, body: '{"id":"rcpt-a-1"}', cut, deliver: 'respond', delayMs: 0 });
        expect([response.status, response.body, await response.text()]).toEqual([status, null, '']);
      }
    }
  });

  test('a cut body errors mid-read; a whole one parses', async () => {
    const body = JSON.stringify({ key: 'a', receipt: 'r' });
    await expect(responseOf({ status: 201, body, cut: true, deliver: 'respond', delayMs: 0 }).json()).rejects.toThrow(/cut mid-read/);
    await expect(responseOf({ status: 201, body, cut: false, deliver: 'respond', delayMs: 0 }).json()).resolves.toEqual({ key: 'a', receipt: 'r' });
  });
});

/** A request to a contract's API: its effect route (the key where the contract says, or none; one of two intents), its query by receipt, or a route it does not name. */
const contractRequest = fc.record({ kind: fc.constantFrom('effect', 'effect', 'effect', 'query', 'elsewhere'), key: fc.constantFrom('a', 'b', undefined), amount: fc.constantFrom(1, 2), receipt: fc.constantFrom('rcpt-a-1', 'rcpt-b-2', 'nope'), after: fc.constantFrom(0, 0, 5_000) });

/** Moves the clock on by `ms`, firing what falls due (an accepted request's commit). */
function wait(clock: VirtualClock, ms: number): void {
  let done = false;
  clock.at(ms, 'wait', () => (done = true));
  while (!done) for (const timer of clock.advance()) timer.fire();
}

function sent(contract: ServiceContract, r: typeof contractRequest extends fc.Arbitrary<infer T> ? T : never): [string, RequestInit | undefined] {
  const [effect, query] = [contract.effects[0], contract.queries[0]];
  if (r.kind === 'query' && query) return [`${contract.url}${query.path.replace(/:\w+/, r.receipt)}`, undefined];
  if (r.kind !== 'effect' || !effect) return [`${contract.url}/elsewhere`, undefined];
  const body: Record<string, unknown> = { amount: r.amount, currency: 'eur', metadata: { order: 'o-1' } };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (r.key !== undefined && 'header' in effect.key) headers[effect.key.header] = r.key;
  if (r.key !== undefined && 'body' in effect.key) body[effect.key.body.slice(1)] = r.key;
  return [`${contract.url}${effect.path}`, { method: effect.method, headers, body: JSON.stringify(body) }];
}

describe.each(['ietf', 'payments', 'client-token'] as const)('Network under the %s preset', (preset) => {
  // Shown, each planted alone in mswHandlers.ts: the key header left out of what contractRoute reads, a POST's body read
  // as empty, Retry-After left out of the reply, 409 answered as 400, and the payments replay flag (Idempotent-Replayed)
  // left out — each failed it under a preset within 11 runs. The last is what examples/contracts/transports.test.ts
  // cannot see: it compares traces, and no example worker reads that header. The statuses drawn found a 205 answer's body
  // reaching the client on the direct path and not through msw (fetch gives none): responseOf now gives none.
  test('msw and direct hand the client the same answers — status, headers, body, delivery — and the service records the same', async () => {
    const preset_ = presetContract(preset) as ServiceContract;
    // The preset as it is, or with the statuses a project may give its answers (any from 200 to 599, a body or none).
    const status = fc.constantFrom(200, 201, 202, 204, 205, 304, 409, 422, 503);
    const statuses = fc.option(fc.record({ created: status, replay: status, mismatch: status }), { freq: 2, nil: undefined });
    const fault = fc.record({ request: fc.nat({ max: 7 }), fault: fc.constantFrom(...RESPONSE_FAULTS, ...FAILURE_CLASS_FAULTS), retryAfterMs: fc.constantFrom(500, 8000) });
    await fc.assert(
      fc.asyncProperty(fc.array(contractRequest, { minLength: 1, maxLength: 8 }), fc.array(fault, { maxLength: 2 }), statuses, async (requests, drawn, given) => {
        const contract: ServiceContract = given === undefined ? preset_ : { ...preset_, created: { ...preset_.created, status: given.created }, replay: { ...preset_.replay, status: given.replay }, mismatch: { ...preset_.mismatch, status: given.mismatch } };
        const faults: ResponseFault[] = drawn.map((f) => ({ kind: 'response', request: f.request, fault: f.fault, ...(f.fault === 'unavailable' ? { retryAfterMs: f.retryAfterMs } : {}) }));
        const clocks = [new VirtualClock(), new VirtualClock()] as const;
        const [direct, viaMsw] = clocks.map((clock) => new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: {}, contract }, faults, clock)) as [ServiceCore, ServiceCore];
        const [directNet, mswNet] = [new Network(direct, contract.url, 'direct'), new Network(viaMsw, contract.url, 'msw')];
        for (const request of requests) {
          for (const clock of clocks) wait(clock, request.after);
          const [url, init] = sent(contract, request);
          const a = await directNet.send(await directNet.read(url, init));
          const b = await mswNet.send(await mswNet.read(url, init));
          expect(await seen(b)).toEqual(await seen(a));
        }
        expect(viaMsw.requests).toEqual(direct.requests);
        expect(viaMsw.effects).toEqual(direct.effects);
      }),
      { numRuns: 100, seed: 54 },
    );
  });
});
