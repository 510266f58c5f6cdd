import { execFileSync } from 'node:child_process';
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
    expect(refusal('{ "operatons": ["publish"] }')).toBe('Failed to read the config: durasim.config.json has a key "operatons" that durasim does not know. Did you mean "operations"? Use any of journal, runs, seed, faults, calls, operations, features, task, env, bounds, service, input.');
    expect(refusal('{ "operations": ["publsh"] }')).toBe('Failed to read the config: durasim.config.json says "operations" has "publsh", which is not one. Did you mean "publish"? Use any of publish, lookup, edit.');
    expect(refusal('{ "faults": "crash" }')).toBe('Failed to read the config: durasim.config.json says "faults": "crash", which is not a list of names. Write e.g. "faults": ["crash"], from crash, disk, io, response, duplicate, user, service-restart, intent, store, failure, concurrent.');
    expect(refusal('{ "runs": 0 }')).toBe('Failed to read the config: durasim.config.json says "runs": 0, which is not a whole number of at least 1. Write e.g. "runs": 2000.');
    expect(refusal('{ "seed": 4294967296 }')).toBe('Failed to read the config: durasim.config.json says "seed": 4294967296, which is not a whole number from 0 to 4294967295. Write e.g. "seed": 42, or leave it out for a fresh seed each run.');
    expect(refusal('{ "env": { "1X": "a" } }')).toBe('Failed to read the config: durasim.config.json says "env" has "1X": "a", which is not a variable\'s name with a text. Write names of letters, digits and _ (not starting with a digit), each with a string value.');
    expect(refusal('{ "journal": "" }')).toBe('Failed to read the config: durasim.config.json says "journal": "", which is not a path. Write the journal module\'s path, relative to the config\'s folder.');
    // Accepted before, and then every run that answered with it failed as durasim's own (exit 5): fetch's Headers cannot carry it.
    expect(refusal('{ "service": { "preset": "payments", "replay": { "status": 200, "headers": { "X-Note": "paid ✓" } } } }')).toBe('Failed to read the config: durasim.config.json says "service.replay.headers" has "X-Note": "paid ✓", which a header cannot carry (a control character, or one past U+00FF). Write it in printable ASCII, e.g. "paid (ok)".');
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
    ['{ "service": { "replay": { "status": 200, "headers": { "X-Note": "payé\\tok" } } } }', true],
    ['{ "service": { "replay": { "status": 200, "headers": { "X-Note": "paid ✓" } } } }', false],
    ['{ "service": { "replay": { "status": 200, "headers": { "X-Note": "a\\u0001" } } } }', false],
  ])('its JSON Schema and durasim agree on %s', (text, valid) => {
    expect(validate(JSON.parse(text))).toBe(valid);
    expect(refusal(text) === 'accepted').toBe(valid);
  });

  test('its JSON Schema states the limits of "env" and of paths that durasim holds them to', () => {
    const variables = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, '1']));
    for (const [config, valid] of [
      [{ env: { A: 'x'.repeat(262_144), ['N'.repeat(200)]: '1', ...variables(998) } }, true],
      [{ env: { A: 'x'.repeat(262_145) } }, false],
      [{ env: { ['N'.repeat(201)]: '1' } }, false],
      [{ env: variables(1001) }, false],
      [{ task: 't'.repeat(4095), journal: 'j'.repeat(4095) }, true],
      [{ task: 't'.repeat(4096) }, false],
    ] as const) {
      expect(validate(config)).toBe(valid);
      expect(refusal(JSON.stringify(config)) === 'accepted').toBe(valid);
    }
  });

  test('every value is held to the scenario\'s limits where it is read (each scenario of the run carries it), naming the key', () => {
    const env = (entries: [string, string][]): string => JSON.stringify({ env: Object.fromEntries(entries) });
    expect(refusal(env([['A', 'x'.repeat(1 << 20)]]))).toBe('Failed to read the config: durasim.config.json says "env" has "A": a value 1048576 characters long, over the limit of 262144. Pass a shorter value (a path to a file holding it, say).');
    expect(refusal(env(Array.from({ length: 20_000 }, (_, i) => [`V${i}`, '1'])))).toBe('Failed to read the config: durasim.config.json says "env": 20000 variables, over the limit of 1000. Every scenario of the run carries the environment: keep it to what the journal reads.');
    expect(refusal(env([['N'.repeat(201), '1']]))).toBe(`Failed to read the config: durasim.config.json says "env" has "${'N'.repeat(40)}… (201 characters)": a name 201 characters long, over the limit of 200. Use a shorter name.`);
    expect(refusal(env(Array.from({ length: 40 }, (_, i) => [`V${i}`, 'x'.repeat(250_000)])))).toBe('Failed to read the config: durasim.config.json says "env": 10000351 characters of names and values, over the limit of a whole scenario file (8388608). Every scenario of the run carries the environment: keep it to what the journal reads.');
    // At the limits, it is taken.
    expect(parseConfig('durasim.config.json', env([...Array.from({ length: 999 }, (_, i): [string, string] => [`V${i}`, '1']), ['N'.repeat(200), 'x'.repeat(262_144)]]), '/project').env?.['N'.repeat(200)]).toHaveLength(262_144);
    expect(refusal(JSON.stringify({ journal: 'j'.repeat(5000) }))).toBe(`Failed to read the config: durasim.config.json says "journal": "${'j'.repeat(59)}… (5002 characters), a path of 5000 bytes, over the limit of 4095 (Linux's). Write the journal module's path, relative to the config's folder.`);
    // A value quoted in a refusal is cut, whatever its size.
    expect(refusal(JSON.stringify({ faults: 'x'.repeat(1 << 20) }))).toMatch(/^Failed to read the config: durasim\.config\.json says "faults": "x{59}… \(1048578 characters\), which is not a list of names\./);
    expect(refusal(JSON.stringify({ faults: ['x'.repeat(1 << 20)] }))).toMatch(/^Failed to read the config: durasim\.config\.json says "faults" has "x{59}… \(1048578 characters\), which is not one\. Use any of crash, /);
    expect(refusal(JSON.stringify({ ['k'.repeat(1 << 20)]: 1 }))).toMatch(/^Failed to read the config: durasim\.config\.json has a key "k{59}… \(1048578 characters\) that durasim does not know\. Use any of journal, /);
  });

  test('its JSON: a key given twice and nesting past 64 deep are refused, naming the key or the limit; a byte-order mark is accepted', () => {
    expect(refusal('{ "runs": 1, "runs": 2 }')).toBe('Failed to read the config: durasim.config.json has the key "runs" twice, at the top level. Fix the file, or delete it to run with the defaults.');
    expect(refusal('{ "env": { "A": "1", "A": "2" } }')).toBe('Failed to read the config: durasim.config.json has the key "A" twice, in env. Fix the file, or delete it to run with the defaults.');
    // 50,000 deep: refused by a scan of the text, where quoting it in the message overflowed the stack (exit 5).
    const deep = `{ "env": ${'{"a":'.repeat(50_000)}"1"${'}'.repeat(50_000)} }`;
    expect(refusal(deep)).toBe('Failed to read the config: durasim.config.json nests arrays and objects more than 64 deep (at character 325), over the limit of 64. Fix the file, or delete it to run with the defaults.');
    expect(parseConfig('durasim.config.json', '\ufeff{ "runs": 3 }', '/project')).toEqual({ runs: 3 });
  });

  test('only a regular file is read: a FIFO or a device is refused by name, at once', () => {
    const project = join(dir, 'special');
    mkdirSync(project);
    execFileSync('mkfifo', [join(project, 'durasim.config.json')]);
    expect(() => loadConfig(undefined, project)).toThrow('Failed to read the config: durasim.config.json is a FIFO (a named pipe), not a file. Fix its permissions, or delete it.');
    expect(() => loadConfig('/dev/zero', project)).toThrow('Failed to read the config: /dev/zero is a character device, not a file. Pass the path of a durasim.config.json.');
    expect(() => loadConfig('/dev/urandom', project)).toThrow('Failed to read the config: /dev/urandom is a character device, not a file. Pass the path of a durasim.config.json.');
    expect(() => readTaskFile('/dev/zero', undefined)).toThrow('Failed to read the task: /dev/zero is a character device, not a file. Pass a scenario-format file (docs/scenario-format.md) holding your task.');
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
    // Each within the limits alone, past them together.
    const many = (prefix: string): Record<string, string> => Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`${prefix}${i}`, '1']));
    writeFileSync(join(project, 'durasim.config.json'), JSON.stringify({ env: many('C') }));
    expect(() => settingsOf({ env: many('F') }, project)).toThrow('Failed to read the config: durasim.config.json says "env", and --env adds to it: 1200 variables, over the limit of 1000. Every scenario of the run carries the environment: keep it to what the journal reads.');
    expect(Object.keys(settingsOf({ env: many('C') }, project).env ?? {})).toHaveLength(600);
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
