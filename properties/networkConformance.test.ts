/**
 * Differential conformance of the simulated network against a real one: generated request
 * sequences (POST and GET of operations, GET of resources, unknown paths; with the service's
 * response faults that do not depend on time) sent through the simulated env.fetch, and through
 * the global fetch to the same fake service core behind a real node:http server on 127.0.0.1; and
 * the same through node:http's client, served by the world on one side and real on the other.
 * Status, the service's own header (content-type) and the body — or the error reading it, for a
 * cut body — must be identical. (A real server adds transport headers, date and connection, that
 * the simulated one does not; they are not the service's and are not compared.)
 */
import { request as httpRequest } from 'node:http';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { VirtualClock } from '../simulator/world/clock.js';
import { DEFAULT_SERVICE, SERVICE_URL, type ResponseFault, type ScenarioService } from '../simulator/scenario/scenario.js';
import { ServiceCore } from '../simulator/service/service.js';
import { simulate } from '../simulator/simulate.js';
import { baseScenario } from '../src/arbitraries.js';
import type { JournalAdapter } from '../model/contract/contract.js';
import { serveOverHttp } from '../src/realService.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  body: string;
}

const TIMELESS_FAULTS = ['500-before-commit', '500-after-commit', 'malformed-body', 'null-body', 'wrong-key', 'wrong-digest', 'empty-receipt', 'pending-state', 'cut-body'] as const;
const SERVICE: ScenarioService = { ...DEFAULT_SERVICE, existing: [{ key: 'b', body: 'earlier' }], resources: { config: 'v1' } };

const request: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({ method: fc.constant('POST' as const), path: fc.constantFrom('/operations/a', '/operations/b', '/resources/config', '/nowhere'), body: fc.constantFrom('x', 'y', 'earlier', '') }),
  fc.record({ method: fc.constant('GET' as const), path: fc.constantFrom('/operations/a', '/operations/b', '/resources/config', '/resources/missing', '/nowhere'), body: fc.constant('') }),
);
const faulted = fc.array(fc.record({ request, fault: fc.option(fc.constantFrom(...TIMELESS_FAULTS), { nil: undefined, freq: 2 }) }), { minLength: 1, maxLength: 8 });

/** One line per request: status, content-type, and the body or the error reading it. */
async function exchange(send: (req: Sent) => Promise<Response>, requests: readonly Sent[]): Promise<string[]> {
  const out: string[] = [];
  for (const req of requests) {
    const response = await send(req);
    let body: string;
    try {
      body = JSON.stringify(await response.text());
    } catch (error) {
      body = `body error ${(error as Error).name}`;
    }
    out.push(`${req.method} ${req.path} → ${response.status} ${response.headers.get('content-type')} ${body}`);
  }
  return out;
}

const init = (req: Sent): RequestInit => (req.method === 'POST' ? { method: 'POST', body: req.body } : { method: 'GET' });

async function simulated(requests: readonly Sent[], faults: ResponseFault[]): Promise<string[]> {
  let out: string[] = [];
  const journal: JournalAdapter = { name: 'network-conformance', run: async (env) => { out = await exchange((req) => env.fetch(`${SERVICE_URL}${req.path}`, init(req)), requests); }, inspect: () => ({}) };
  const result = await simulate(journal, { ...baseScenario([]), task: { id: 'net', operations: [] }, service: SERVICE, faults });
  expect(result.outcome).toEqual({ kind: 'completed' });
  return out;
}

async function overHttp(requests: readonly Sent[], faults: ResponseFault[]): Promise<string[]> {
  const service = await serveOverHttp(new ServiceCore({ ...SERVICE, existing: [...SERVICE.existing] }, faults, new VirtualClock()));
  try {
    return await exchange((req) => fetch(`${service.url}${req.path}`, init(req)), requests);
  } finally {
    await service.close();
  }
}

describe('the simulated network answers as a real node:http server over the same service', () => {
  test.prop([faulted], { numRuns: runs(300), seed: seed(12) })('generated request sequences give identical status, content-type and body', async (draws) => {
    const requests = draws.map((d) => d.request);
    const faults: ResponseFault[] = draws.flatMap((d, i) => (d.fault ? [{ kind: 'response' as const, request: i, fault: d.fault }] : []));
    expect(await simulated(requests, faults)).toEqual(await overHttp(requests, faults));
  }, PROPERTY_TIMEOUT_MS);
});

/** The same exchange through node:http's client: status, content-type, and the body or the error code that ended it. */
function httpExchange(base: string, requests: readonly Sent[]): Promise<string[]> {
  const one = (req: Sent): Promise<string> =>
    new Promise((resolve, reject) => {
      const sent = httpRequest(`${base}${req.path}`, { method: req.method }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        const line = (body: string): string => `${req.method} ${req.path} → ${response.statusCode} ${response.headers['content-type']} ${body}`;
        response.on('end', () => resolve(line(JSON.stringify(text))));
        response.on('error', (error: NodeJS.ErrnoException) => resolve(line(`body error ${error.code}`)));
      });
      sent.on('error', reject);
      sent.end(req.method === 'POST' ? req.body : undefined);
    });
  return (async () => {
    const out: string[] = [];
    for (const req of requests) out.push(await one(req));
    return out;
  })();
}

describe('node:http as durasim serves it answers as the real client does, over the same service', () => {
  test('a cut body ends in ECONNRESET on both sides', async () => {
    const requests: Sent[] = [{ method: 'POST', path: '/operations/a', body: 'x' }];
    const faults: ResponseFault[] = [{ kind: 'response', request: 0, fault: 'cut-body' }];
    const service = await serveOverHttp(new ServiceCore({ ...SERVICE, existing: [...SERVICE.existing] }, faults, new VirtualClock()));
    try {
      expect(await httpExchange(service.url, requests)).toEqual(['POST /operations/a → 201 application/json body error ECONNRESET']);
    } finally {
      await service.close();
    }
  });

  test.prop([faulted], { numRuns: runs(200), seed: seed(13) })('generated request sequences give identical status, content-type and body', async (draws) => {
    const requests = draws.map((d) => d.request);
    const faults: ResponseFault[] = draws.flatMap((d, i) => (d.fault ? [{ kind: 'response' as const, request: i, fault: d.fault }] : []));
    let served: string[] = [];
    const journal: JournalAdapter = { name: 'http-conformance', run: async () => void (served = await httpExchange(SERVICE_URL, requests)), inspect: () => ({}) };
    const result = await simulate(journal, { ...baseScenario([]), task: { id: 'net', operations: [] }, service: SERVICE, faults });
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.escapes).toEqual([]);
    const service = await serveOverHttp(new ServiceCore({ ...SERVICE, existing: [...SERVICE.existing] }, faults, new VirtualClock()));
    try {
      expect(served).toEqual(await httpExchange(service.url, requests));
    } finally {
      await service.close();
    }
  }, PROPERTY_TIMEOUT_MS);
});
