/**
 * Differential conformance of the simulated network against a real one: generated request
 * sequences (POST and GET of operations, GET of resources, unknown paths; with the service's
 * response faults that do not depend on time) sent through the simulated env.fetch, and through
 * the global fetch to the same fake service core behind a real node:http server on 127.0.0.1.
 * Status, the service's own header (content-type) and the body — or the error reading it, for a
 * cut body — must be identical. (A real server adds transport headers, date and connection, that
 * the simulated one does not; they are not the service's and are not compared.)
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { VirtualClock } from '../simulator/clock.js';
import { DEFAULT_SERVICE, SERVICE_URL, type ResponseFault, type ScenarioService } from '../simulator/scenario.js';
import { ServiceCore } from '../simulator/service.js';
import { simulate } from '../simulator/simulate.js';
import { baseScenario } from '../src/arbitraries.js';
import type { JournalAdapter } from '../src/contract.js';
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
