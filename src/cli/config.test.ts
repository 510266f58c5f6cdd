import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../ownFiles.js';
import { loadConfig, parseConfig, readTaskFile, settingsOf } from './config.js';
import { PRESETS, presetContract } from '../../simulator/contract/presets.js';

const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'schema', 'config.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'durasim-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (text: string): string => {
  try {
    parseConfig('durasim.config.json', text, '/project');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('durasim.config.json', () => {
  test('says the task shape; its paths are relative to its own folder, as flags are to the working one', () => {
    const config = parseConfig('sub/durasim.config.json', JSON.stringify({ $schema: './node_modules/durasim/schema/config.schema.json', journal: './my-journal.ts', task: 'tasks/one.json', operations: ['publish', 'publish'], features: [], faults: ['crash', 'io'], runs: 300, seed: 7, env: { LOCK_TTL_MS: '5000' } }), '/project');
    expect(config).toEqual({ journal: './sub/my-journal.ts', task: './sub/tasks/one.json', operations: ['publish'], features: [], faults: ['crash', 'io'], runs: 300, seed: 7, env: { LOCK_TTL_MS: '5000' } });
  });

  test('refuses what it cannot mean, word for word, naming the key', () => {
    expect(refusal('{ "operatons": ["publish"] }')).toBe('Failed to read the config: durasim.config.json has a key "operatons" that durasim does not know. Did you mean "operations"? Use any of journal, runs, seed, faults, operations, features, task, env, bounds, service.');
    expect(refusal('{ "operations": ["publsh"] }')).toBe('Failed to read the config: durasim.config.json says "operations" has "publsh", which is not one. Did you mean "publish"? Use any of publish, lookup, edit.');
    expect(refusal('{ "faults": "crash" }')).toBe('Failed to read the config: durasim.config.json says "faults": "crash", which is not a list of names. Write e.g. "faults": ["crash"], from crash, disk, io, response, duplicate, user, service-restart, intent, store, failure, concurrent.');
    expect(refusal('{ "runs": 0 }')).toBe('Failed to read the config: durasim.config.json says "runs": 0, which is not a whole number of at least 1. Write e.g. "runs": 2000.');
    expect(refusal('{ "seed": 4294967296 }')).toBe('Failed to read the config: durasim.config.json says "seed": 4294967296, which is not a whole number from 0 to 4294967295. Write e.g. "seed": 42, or leave it out for a fresh seed each run.');
    expect(refusal('{ "env": { "1X": "a" } }')).toBe('Failed to read the config: durasim.config.json says "env" has "1X": "a", which is not a variable\'s name with a text. Write names of letters, digits and _ (not starting with a digit), each with a string value.');
    expect(refusal('{ "journal": "" }')).toBe('Failed to read the config: durasim.config.json says "journal": "", which is not a path. Write the journal module\'s path, relative to the config\'s folder.');
    expect(refusal('{ "bounds": { "maxStep": 3 } }')).toBe('Failed to read the config: durasim.config.json says "bounds" has "maxStep", which is not a bound. Did you mean "maxSteps"? Use any of maxSteps, maxIncarnations, maxVirtualTimeMs.');
    expect(refusal('{ "bounds": { "maxSteps": 0 } }')).toBe('Failed to read the config: durasim.config.json says "bounds.maxSteps": 0, which is not a whole number from 1 to 1000000. Write e.g. "bounds": { "maxSteps": 20000, "maxVirtualTimeMs": 7200000 }.');
    expect(refusal('{ "bounds": 5000 }')).toBe('Failed to read the config: durasim.config.json says "bounds": 5000, which is not an object. Write e.g. "bounds": { "maxSteps": 20000, "maxVirtualTimeMs": 7200000 }.');
    expect(parseConfig('durasim.config.json', '{ "bounds": { "maxSteps": 20000, "maxVirtualTimeMs": 7200000 } }', '/project')).toEqual({ bounds: { maxSteps: 20000, maxVirtualTimeMs: 7200000 } });
    expect(refusal('[1]')).toBe('Failed to read the config: durasim.config.json is not a JSON object. Write e.g. { "journal": "./my-journal.ts", "operations": ["publish"] }.');
    expect(refusal('{ "journal": ')).toMatch(/^Failed to read the config: durasim\.config\.json is not JSON \(.+\)\. Fix the file, or delete it to run with the defaults\.$/);
  });

  test.each([
    ['{}', true],
    ['{ "operations": ["lookup", "edit"], "features": ["token"], "faults": ["crash"] }', true],
    ['{ "features": [] }', true],
    ['{ "env": { "A_1": "x" }, "journal": "j.ts", "task": "t.json", "runs": 1, "seed": 0 }', true],
    ['{ "operatons": [] }', false],
    ['{ "operations": [] }', false],
    ['{ "features": ["tokens"] }', false],
    ['{ "faults": ["crash", "fire"] }', false],
    ['{ "runs": 1.5 }', false],
    ['{ "seed": -1 }', false],
    ['{ "env": { "A": 1 } }', false],
    ['{ "journal": "  " }', false],
    // The service contract (docs/service-contract.md): a preset and what differs.
    ['{ "service": { "preset": "payments", "url": "https://api.example.com" } }', true],
    ['{ "service": { "preset": "durasim" } }', true],
    ['{ "service": { "effects": [{ "method": "POST", "path": "/v1/orders", "key": { "body": "/token" }, "intent": { "pointers": ["/amount"] } }], "queries": [{ "path": "/v1/orders", "by": "filter", "filter": { "query": "ref", "field": "/ref" }, "list": "/items" }] } }', true],
    ['{ "service": { "memory": { "ttlMs": 60000 }, "outOfScope": ["GET /health"], "inFlight": null, "states": { "committed": "paid", "pending": "processing" } } }', true],
    ['{ "service": { "created": { "status": 201, "body": { "id": "{{receipt}}" }, "receipt": "/id" }, "unavailable": { "status": 503, "retryAfter": "http-date" } } }', true],
    ['{ "service": { "preset": "stripe" } }', false],
    ['{ "service": { "preset": "durasim", "url": "https://x.example" } }', false],
    ['{ "service": { "colour": "red" } }', false],
    ['{ "service": { "url": "ftp://x.example" } }', false],
    ['{ "service": { "effects": [{ "method": "post", "path": "/x", "key": { "header": "K" } }] } }', false],
    ['{ "service": { "effects": [{ "method": "POST", "path": "/x", "key": { "cookie": "K" } }] } }', false],
    ['{ "service": { "queries": [{ "path": "/o/:id", "by": "nope" }] } }', false],
    ['{ "service": { "mismatch": { "status": 99 } } }', false],
    ['{ "service": { "memory": { "ttlMs": 0 } } }', false],
    ['{ "service": { "outOfScope": ["health"] } }', false],
  ])('its JSON Schema and durasim agree on %s', (text, valid) => {
    expect(validate(JSON.parse(text))).toBe(valid);
    expect(refusal(text) === 'accepted').toBe(valid);
  });

  test('its JSON Schema accepts every preset written out whole, as a project may copy one', () => {
    for (const name of PRESETS) {
      const contract = presetContract(name);
      if (contract) expect(validate({ service: contract }), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  test('is found in the working folder, or where --config says (which must exist); none is no config', () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    expect(loadConfig(undefined, project)).toBeUndefined();
    writeFileSync(join(project, 'durasim.config.json'), '{ "runs": 12 }');
    expect(loadConfig(undefined, project)).toEqual({ file: 'durasim.config.json', config: { runs: 12 } });
    writeFileSync(join(project, 'ci.json'), '{ "runs": 5 }');
    expect(loadConfig('ci.json', project)).toEqual({ file: 'ci.json', config: { runs: 5 } });
    expect(() => loadConfig('missing.json', project)).toThrow('Failed to read the config: missing.json could not be read (ENOENT). Pass the path of a durasim.config.json.');
  });

  test('a command runs with its flags, else the config, else nothing; a variable on the command line wins over the config\'s', () => {
    const project = join(dir, 'settings');
    mkdirSync(project);
    writeFileSync(join(project, 'durasim.config.json'), '{ "runs": 12, "seed": 4, "operations": ["publish"], "env": { "A": "1", "B": "2" } }');
    expect(settingsOf({ runs: 30, env: { B: 'flag' } }, project)).toEqual({ runs: 30, seed: 4, operations: ['publish'], env: { A: '1', B: 'flag' }, configFile: 'durasim.config.json' });
    expect(settingsOf({ journal: './j.ts' }, dir)).toEqual({ journal: './j.ts' });
  });

  test('a task file must be a scenario with an operation of the kinds in play', () => {
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 'mine', operations: [{ kind: 'lookup', key: 'get-a', resource: 'a' }] }, service: { resources: { a: '1' } } }));
    expect(readTaskFile(file, undefined).task.id).toBe('mine');
    expect(() => readTaskFile(file, ['publish'])).toThrow(`Failed to read the task: ${file} has no operation of the kinds publish. Add one to its task, or name its kinds in "operations" (--operations).`);
    writeFileSync(file, '{ "task": 1 }');
    expect(() => readTaskFile(file, undefined)).toThrow(/^Failed to /);
  });
});
