/**
 * The scenario format's JSON Schema (schema/scenario.schema.json), for editors: it must accept every
 * committed scenario and every scenario durasim writes, and refuse what the parser refuses.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { Ajv } from 'ajv';
import { describe, expect } from 'vitest';
import { parseScenario, scenarioToJson, SCENARIO_SCHEMA_URL } from '../simulator/scenario/scenario.js';
import { FAULT_KINDS, scenarioArbitrary } from '../src/arbitraries.js';
import { SCENARIO_LIMITS } from '../simulator/scenario/scenarioLimits.js';
import { findingJson } from '../src/findingJson.js';
import { runs, seed } from './budgets.js';
import { PRESETS, presetContract } from '../simulator/contract/presets.js';
import { parseContract, ROUTE_PATH_CHARS } from '../simulator/contract/parseContract.js';

const ROOT = new URL('..', import.meta.url).pathname;
const schema = JSON.parse(readFileSync(join(ROOT, 'schema/scenario.schema.json'), 'utf8')) as { $id: string };
const validate = new Ajv({ allErrors: true }).compile(schema);
const errors = (): string => JSON.stringify(validate.errors?.slice(0, 3));

/** Every .json file under `dir` whose "format" says it is a scenario. */
function scenarioFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scenarioFiles(path);
    return name.endsWith('.json') && (JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown }).format === 'durasim.scenario' ? [path] : [];
  });
}

describe('the scenario JSON Schema', () => {
  test('states the limits the parser enforces (scenarioLimits.ts), number for number', () => {
    const s = schema as unknown as { properties: Record<string, { maxLength?: number; maxItems?: number; properties?: Record<string, { maximum?: number }> }>; definitions: Record<string, { maxLength?: number; maxItems?: number }> };
    expect(s.properties.name?.maxLength).toBe(SCENARIO_LIMITS.titleChars);
    expect(s.properties.description?.maxLength).toBe(SCENARIO_LIMITS.descriptionChars);
    expect(s.definitions.key?.maxLength).toBe(SCENARIO_LIMITS.nameChars);
    expect(s.definitions.relativePath?.maxLength).toBe(SCENARIO_LIMITS.pathBytes);
    expect(s.definitions.operations?.maxItems).toBe(SCENARIO_LIMITS.operations);
    expect(s.properties.faults?.maxItems).toBe(SCENARIO_LIMITS.faults);
    expect(s.properties.schedule?.maxItems).toBe(SCENARIO_LIMITS.decisions);
    expect(s.properties.bounds?.properties?.maxSteps?.maximum).toBe(SCENARIO_LIMITS.maxSteps);
    expect(s.properties.bounds?.properties?.maxIncarnations?.maximum).toBe(SCENARIO_LIMITS.maxIncarnations);
    const texts = JSON.stringify(schema).match(/"maxLength":(\d+)/g)?.map((m) => Number(m.split(':')[1])) ?? [];
    expect(new Set(texts)).toEqual(new Set([SCENARIO_LIMITS.titleChars, SCENARIO_LIMITS.descriptionChars, SCENARIO_LIMITS.nameChars, SCENARIO_LIMITS.textChars, SCENARIO_LIMITS.pathBytes, ROUTE_PATH_CHARS]));
  });

  test('is the one durasim names in what it writes', () => {
    expect(schema.$id).toBe(SCENARIO_SCHEMA_URL);
  });

  const committed = scenarioFiles(join(ROOT, 'reports'));
  test('accepts every committed scenario (regressions, seeds, mutants)', () => {
    expect(committed.length).toBeGreaterThan(40);
    for (const file of committed) expect(validate(JSON.parse(readFileSync(file, 'utf8'))), `${file}: ${errors()}`).toBe(true);
  });

  test.prop([scenarioArbitrary({ faults: FAULT_KINDS })], { numRuns: runs(300), seed: seed(14) })('accepts every generated scenario as durasim writes it, every family drawn (concurrent too)', (scenario) => {
    expect(validate(scenarioToJson(scenario)), errors()).toBe(true);
  });

  // A run under a service contract keeps the whole contract in its scenario (service.contract): a counterexample found
  // with one must pass its own $schema, as the config's "service" passes config.schema.json's — the same definition.
  const contracts = [...PRESETS.flatMap((name) => presetContract(name) ?? []), parseContract({ preset: 'ietf', effects: [{ method: 'PUT', path: '/v2/orders/:key', key: { path: 'key' }, intent: { pointers: ['/amount'] } }], queries: [{ path: '/v2/orders', by: 'filter', filter: { query: 'ref', field: '/ref' }, list: '/items' }], inFlight: null, unavailable: { status: 429, body: { waitMs: '{{retryAfterMs}}' }, retryAfter: { body: '/waitMs' } }, memory: 'volatile', outOfScope: ['GET /health'] }, 'service', () => {
    throw new Error('a contract the test means');
  })!];
  test.prop([fc.constantFrom(...contracts).chain((contract) => scenarioArbitrary({ faults: FAULT_KINDS, contract }))], { numRuns: runs(100), seed: seed(54) })('accepts every scenario generated under a service contract (each preset, and one of a project\'s own)', (scenario) => {
    expect(validate(scenarioToJson(scenario)), errors()).toBe(true);
  });

  test('holds the same contract definition as the config schema', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'schema/config.schema.json'), 'utf8')) as { definitions: Record<string, unknown> };
    const own = (schema as unknown as { definitions: Record<string, unknown> }).definitions;
    for (const name of Object.keys(config.definitions)) expect(own[name], name).toEqual(config.definitions[name]);
  });

  test('accepts a finding as durasim writes it: the journal it was found with, and a regression block with its date', () => {
    const scenario = parseScenario({ format: 'durasim.scenario', version: 2, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] } });
    const written = findingJson(scenario, { name: 'my-journal', module: './my-journal.ts' }, { regression: { journal: 'my-journal', invariants: ['write-ahead'], seed: 7, savedAt: '2026-01-31T10:00:00.000Z' } });
    expect(validate(written), errors()).toBe(true);
    expect(parseScenario(written)).toEqual(scenario);
  });

  const minimal = { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] } };
  test.each([
    ['an unknown field', { ...minimal, fautls: [] }],
    ['a crash with both step and at', { ...minimal, faults: [{ kind: 'crash', process: 0, when: 'after', step: 1, at: { mentions: 'a', occurrence: 0 } }] }],
    ['a crash mode that does not exist', { ...minimal, faults: [{ kind: 'crash', process: 0, when: 'after', step: 1, mode: 'explode' }] }],
    ['an I/O error with no error', { ...minimal, faults: [{ kind: 'io-error', process: 0, step: 1 }] }],
    ['an absolute path', { ...minimal, files: { '/etc/passwd': 'x' } }],
    ['a key with a space', { ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a b', body: 'x' }] } }],
    // The limits (simulator/scenario/scenarioLimits.ts):
    ['a name that is a nested array', { ...minimal, name: [[[[]]]] }],
    ['a name over 200 characters', { ...minimal, name: 'n'.repeat(201) }],
    ['a description over 10,000 characters', { ...minimal, description: 'd'.repeat(10_001) }],
    ['a key over 200 characters', { ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'k'.repeat(201), body: 'x' }] } }],
    ['a body over 256 KiB', { ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'b'.repeat(256 * 1024 + 1) }] } }],
    ['a temp folder path over PATH_MAX', { ...minimal, task: { id: 't', operations: [], temp: { dir: 'd/'.repeat(2100) + 'd', retentionMs: 0 } } }],
    ['more than 256 operations', { ...minimal, task: { id: 't', operations: Array.from({ length: 257 }, (_, i) => ({ kind: 'publish', key: `k${i}`, body: 'x' })) } }],
    ['more than 1,000 faults', { ...minimal, faults: Array.from({ length: 1001 }, () => ({ kind: 'service-restart', atStep: 1 })) }],
    ['more than 100,000 schedule decisions', { ...minimal, schedule: Array.from({ length: 100_001 }, () => 0) }],
    ['a step past what JavaScript counts exactly', { ...minimal, faults: [{ kind: 'service-restart', atStep: 1e300 }] }],
    ['a step bound over 1,000,000', { ...minimal, bounds: { maxSteps: 1_000_001 } }],
    // The journal a finding was found with (simulator/scenario/recordedJournal.ts):
    ['a journal record that is a bare name', { ...minimal, journal: 'my-journal' }],
    ['a journal record without its module', { ...minimal, journal: { name: 'my-journal' } }],
    ['a journal record with an empty name', { ...minimal, journal: { name: '', module: './my-journal.ts' } }],
    ['a journal record with a field of its own', { ...minimal, journal: { name: 'my-journal', module: './my-journal.ts', path: '/abs' } }],
  ])('refuses %s, as the parser does', (_name, value) => {
    expect(validate(value)).toBe(false);
    expect(() => parseScenario(value)).toThrow(/^Failed to load scenario: /);
  });
});
