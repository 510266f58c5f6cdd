/**
 * The scenario format's JSON Schema (schema/scenario.schema.json), for editors: it must accept every
 * committed scenario and every scenario durasim writes, and refuse what the parser refuses.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@fast-check/vitest';
import { Ajv } from 'ajv';
import { describe, expect } from 'vitest';
import { parseScenario, scenarioToJson, SCENARIO_SCHEMA_URL } from '../simulator/scenario/scenario.js';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { runs, seed } from './budgets.js';

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
  test('is the one durasim names in what it writes', () => {
    expect(schema.$id).toBe(SCENARIO_SCHEMA_URL);
  });

  const committed = scenarioFiles(join(ROOT, 'reports'));
  test('accepts every committed scenario (regressions, seeds, mutants)', () => {
    expect(committed.length).toBeGreaterThan(40);
    for (const file of committed) expect(validate(JSON.parse(readFileSync(file, 'utf8'))), `${file}: ${errors()}`).toBe(true);
  });

  test.prop([scenarioArbitrary()], { numRuns: runs(300), seed: seed(14) })('accepts every generated scenario as durasim writes it', (scenario) => {
    expect(validate(scenarioToJson(scenario)), errors()).toBe(true);
  });

  const minimal = { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] } };
  test.each([
    ['an unknown field', { ...minimal, fautls: [] }],
    ['a crash with both step and at', { ...minimal, faults: [{ kind: 'crash', process: 0, when: 'after', step: 1, at: { mentions: 'a', occurrence: 0 } }] }],
    ['a crash mode that does not exist', { ...minimal, faults: [{ kind: 'crash', process: 0, when: 'after', step: 1, mode: 'explode' }] }],
    ['an I/O error with no error', { ...minimal, faults: [{ kind: 'io-error', process: 0, step: 1 }] }],
    ['an absolute path', { ...minimal, files: { '/etc/passwd': 'x' } }],
    ['a key with a space', { ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a b', body: 'x' }] } }],
  ])('refuses %s, as the parser does', (_name, value) => {
    expect(validate(value)).toBe(false);
    expect(() => parseScenario(value)).toThrow(/^Failed to load scenario: /);
  });
});
