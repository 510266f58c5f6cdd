/** What a request carries and how its answer is delivered are the same by every path: the direct transport, msw's handlers and a real node:http server. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveOverHttp, type RealService } from '../../src/realService.js';
import { VirtualClock } from '../world/clock.js';
import { loadMsw, Network } from './network.js';
import { DEFAULT_SERVICE } from '../scenario/scenario.js';
import { ServiceCore } from './service.js';
import { simulate } from '../simulate.js';

// The msw transport loads msw on first use (simulate() does it before a run): the tests here build Networks by hand.
beforeAll(loadMsw);

const fresh = () => new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: {} }, [], new VirtualClock());
const tokens = [2, 1, 2, undefined, 3, 0];
const init = (token: number | undefined): RequestInit => ({ method: 'POST', body: 'x', ...(token === undefined ? {} : { headers: { 'x-fencing-token': String(token) } }) });

let real: RealService;
let realCore: ServiceCore;
beforeAll(async () => {
  realCore = fresh();
  real = await serveOverHttp(realCore);
});
afterAll(async () => real.close());

describe('x-fencing-token', () => {
  test('direct, msw and real HTTP give the same statuses and record the same tokens', async () => {
    const statuses: Record<string, number[]> = {};
    for (const transport of ['direct', 'msw'] as const) {
      const core = fresh();
      const network = new Network(core, 'http://service.test', transport);
      statuses[transport] = [];
      for (const [i, token] of tokens.entries()) {
        const request = await network.read(`http://service.test/operations/k${i}`, init(token));
        statuses[transport]?.push((await network.send(request)).status);
      }
      expect(core.requests.map((r) => r.fencingToken)).toEqual(tokens);
    }
    statuses.real = [];
    for (const [i, token] of tokens.entries()) statuses.real.push((await fetch(`${real.url}/operations/k${i}`, init(token))).status);
    expect(realCore.requests.map((r) => r.fencingToken)).toEqual(tokens);
    expect(statuses.direct).toEqual([201, 412, 201, 201, 201, 412]);
    expect(statuses.msw).toEqual(statuses.direct);
    expect(statuses.real).toEqual(statuses.direct);
  });
});

describe('x-fencing-token on a query', () => {
  test('a GET with a higher token raises the highest one, so an older holder\'s POST is refused after it; a GET with an older token is still served', () => {
    const core = fresh();
    const get = (token: number) => core.receive('GET', { kind: 'query', key: 'k' }, '', { fencingToken: token }).status;
    const post = (key: string, token: number) => core.receive('POST', { kind: 'publish', key }, 'x', { fencingToken: token }).status;
    expect(post('a', 1)).toBe(201);
    expect(get(2)).toBe(404); // the successor only asked
    expect(post('b', 1)).toBe(412); // the paused former holder wakes and sends: refused, no effect
    expect(get(1)).toBe(404); // a read with an old token is served
    expect(post('c', 2)).toBe(201);
    expect(core.effects.map((e) => e.key)).toEqual(['a', 'c']);
  });
});

describe('authorization', () => {
  const bearers = ['Bearer tok', undefined, 'Bearer other', 'bearer tok', 'Bearer tok'];
  const sent = (bearer: string | undefined): RequestInit => ({ method: 'POST', body: 'x', ...(bearer === undefined ? {} : { headers: { authorization: bearer } }) });

  test('a service that knows the task\'s token refuses a request whose credential is not exactly "Bearer <token>" (401, no effect) and serves one with none — the same by direct, msw and real HTTP', async () => {
    const statuses: Record<string, number[]> = {};
    for (const transport of ['direct', 'msw'] as const) {
      const core = fresh();
      core.requireBearer('tok');
      const network = new Network(core, 'http://service.test', transport);
      statuses[transport] = [];
      for (const [i, bearer] of bearers.entries()) statuses[transport]?.push((await network.send(await network.read(`http://service.test/operations/a${i}`, sent(bearer)))).status);
      expect(core.effects.map((e) => e.key)).toEqual(['a0', 'a1', 'a4']);
      expect(core.requests.map((r) => r.unauthorized ?? false)).toEqual([false, false, true, true, false]);
    }
    const realCoreWithToken = fresh();
    realCoreWithToken.requireBearer('tok');
    const served = await serveOverHttp(realCoreWithToken);
    statuses.real = [];
    for (const [i, bearer] of bearers.entries()) statuses.real.push((await fetch(`${served.url}/operations/a${i}`, sent(bearer))).status);
    await served.close();
    expect(statuses.direct).toEqual([201, 201, 401, 401, 201]);
    expect(statuses.msw).toEqual(statuses.direct);
    expect(statuses.real).toEqual(statuses.direct);
  });
});

describe('a connection reset', () => {
  test('fails the client\'s fetch at once the same way in the simulated world and over real HTTP: TypeError "fetch failed", caused by ECONNRESET', async () => {
    const realCoreReset = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: {} }, [{ kind: 'response', request: 0, fault: 'reset-after-commit' }], new VirtualClock());
    const served = await serveOverHttp(realCoreReset);
    const real = await fetch(`${served.url}/operations/a`, { method: 'POST', body: 'x' }).then(() => undefined, (error: unknown) => error as TypeError & { cause: { code?: string } });
    await served.close();
    const simulated = await simulate({ name: 'reset', inspect: () => ({}), run: async (env, task) => {
      await env.fetch(`${task.service.url}/operations/a`, { method: 'POST', body: 'x' }).catch((error: unknown) => (caught = error as TypeError & { cause: { code?: string } }));
    } }, { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] }, faults: [{ kind: 'response', request: 0, fault: 'reset-after-commit' }] });
    const shape = (e: (TypeError & { cause: { code?: string } }) | undefined) => [e?.name, e?.message, e?.cause.code];
    expect(shape(real)).toEqual(['TypeError', 'fetch failed', 'ECONNRESET']);
    expect(shape(caught)).toEqual(shape(real));
    expect(realCoreReset.effects).toHaveLength(1);
    expect(simulated.effects).toHaveLength(1);
    expect(simulated.trace.some((e) => e.detail.endsWith('(connection reset)'))).toBe(true);
  });
});
let caught: (TypeError & { cause: { code?: string } }) | undefined;
