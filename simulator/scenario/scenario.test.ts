import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../src/arbitraries.js';
import { DEFAULT_BOUNDS, parseScenario, parseScenarioText, scenarioToJson, SCENARIO_SCHEMA_URL } from './scenario.js';

const minimal = { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] } };

describe('parseScenario', () => {
  test('fills the boring defaults', () => {
    const scenario = parseScenario(minimal);
    expect(scenario.faults).toEqual([]);
    expect(scenario.schedule).toEqual([]);
    expect(scenario.service).toMatchObject({ idempotencyMemory: 'durable', query: true, latencyMs: 1 });
    expect(scenario.bounds).toEqual(DEFAULT_BOUNDS);
  });

  test('round-trips through its saved form', () => {
    const scenario = baseScenario();
    scenario.faults = [{ kind: 'crash', process: 0, incarnation: 1, step: 4, when: 'after', mode: 'torn-tail', tornKeepBytes: 3 }];
    expect(parseScenario(JSON.parse(JSON.stringify(scenarioToJson(scenario))))).toEqual(scenario);
  });

  test('the saved form drops defaults, and names the format\'s JSON Schema', () => {
    expect(scenarioToJson(parseScenario(minimal))).toEqual({ $schema: SCENARIO_SCHEMA_URL, ...minimal });
    expect(parseScenario(scenarioToJson(parseScenario(minimal)))).toEqual(parseScenario(minimal));
  });

  test.each([
    [{ ...minimal, format: 'other' }, 'Failed to load scenario: format must be "durasim.scenario", found "other". Is this a durasim scenario file?'],
    [{ ...minimal, version: 4 }, 'Failed to load scenario: version is 4, newer than this durasim understands (3). Upgrade durasim to replay this scenario.'],
    [{ ...minimal, task: undefined }, 'Failed to load scenario: task must be an object, found nothing. Fix the scenario file, or regenerate it with durasim.'],
    [
      { ...minimal, faults: [{ kind: 'crash', process: 0, step: 1, when: 'during' }] },
      'Failed to load scenario: faults[0].when must be one of "before", "after", found "during". Fix the scenario file, or regenerate it with durasim.',
    ],
    [
      { ...minimal, faults: [{ kind: 'crash', process: 1, step: 1, when: 'before' }] },
      'Failed to load scenario: faults[0].process is 1, but the scenario has 1 worker(s). Crash worker 0, or add a duplicate-delivery fault that starts another worker.',
    ],
    [
      { ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }, { kind: 'lookup', key: 'a', resource: 'r' }] } },
      'Failed to load scenario: task.operations[1].key repeats the key "a". Give every operation its own key.',
    ],
    [
      { ...minimal, files: { '../etc/passwd': 'x' } },
      'Failed to load scenario: files key "../etc/passwd" must stay inside the work dir (no ".."), found "../etc/passwd". Use a relative path such as "article.txt" or "docs/notes.md".',
    ],
    [{ ...minimal, files: { a: 'x', 'a/b': 'y' } }, 'Failed to load scenario: files name "a" both as a file and as the folder of "a/b". Give every file a path that is not another file\'s folder.'],
    [{ ...minimal, files: { '.': 'x' } }, 'Failed to load scenario: files key "." must be a plain relative path (no "." segment, empty segment or trailing "/"), found ".". Use a relative path such as "article.txt" or "docs/notes.md".'],
    [{ ...minimal, files: { './': 'x' } }, 'Failed to load scenario: files key "./" must be a plain relative path (no "." segment, empty segment or trailing "/"), found "./". Use a relative path such as "article.txt" or "docs/notes.md".'],
    [{ ...minimal, files: { 'a\u0000b': 'x' } }, 'Failed to load scenario: files key "a\\u0000b" must not contain a NUL byte, found "a\\u0000b". Use a relative path such as "article.txt" or "docs/notes.md".'],
    [{ ...minimal, fault: [] }, 'Failed to load scenario: fault is not a known field. Did you mean "faults"?'],
    [{ ...minimal, faults: [{ fault: 'crash', process: 0, step: 1, when: 'before' }] }, 'Failed to load scenario: faults[0].fault is not a known field. Did you mean "kind"?'],
    [{ ...minimal, faults: [{ kind: 'crash', process: 0, step: 1, when: 'before', mdoe: 'lose-unsynced' }] }, 'Failed to load scenario: faults[0].mdoe is not a known field. Did you mean "mode"?'],
    [{ ...minimal, service: { querry: false } }, 'Failed to load scenario: service.querry is not a known field. Did you mean "query"?'],
    [{ ...minimal, bounds: { steps: 5 } }, 'Failed to load scenario: bounds.steps is not a known field. Did you mean "maxSteps"?'],
    [{ ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x', retrysafe: true }] } }, 'Failed to load scenario: task.operations[0].retrysafe is not a known field. Did you mean "retrySafe"?'],
    [{ ...minimal, random: [1.5] }, 'Failed to load scenario: random[0] must be a number in [0, 1), found 1.5. Fix the scenario file, or regenerate it with durasim.'],
    [{ ...minimal, schedule: [-1] }, 'Failed to load scenario: schedule[0] must be an integer >= 0, found -1. Fix the scenario file, or regenerate it with durasim.'],
    [{ ...minimal, task: { id: 't', operations: [], temp: 'tmp' } }, 'Failed to load scenario: task.temp must be an object, found "tmp". Write "temp": { "dir": "tmp", "retentionMs": 0 }.'],
    [{ ...minimal, task: { id: 't', operations: [], temp: { dir: 'tmp', retention: 5 } } }, 'Failed to load scenario: task.temp.retention is not a known field. Did you mean "retentionMs"?'],
    [{ ...minimal, task: { id: 't', operations: [], temp: { dir: '/tmp', retentionMs: 0 } } }, 'Failed to load scenario: task.temp.dir must be relative to the work dir, found "/tmp". Use a relative path such as "article.txt" or "docs/notes.md".'],
    [
      { ...minimal, task: { id: 't', operations: [{ kind: 'edit', key: 'e', path: 'tmp/notes.md', append: 'x' }], temp: { dir: 'tmp', retentionMs: 0 } } },
      'Failed to load scenario: task.temp.dir holds "tmp/notes.md", a file the task edits or the user saves. Give the task a temp folder of its own (files there before the run are other tasks\' temp files).',
    ],
  ])('rejects a malformed scenario with a house-style message (%#)', (input, message) => {
    expect(() => parseScenario(input)).toThrow(message);
  });

  test('bad JSON text gets the same style', () => {
    expect(() => parseScenarioText('{ nope')).toThrow(/^Failed to load scenario: the file is not valid JSON \(.+\)\. Fix the scenario file, or regenerate it with durasim\.$/);
  });

  test('its text: a byte-order mark is accepted; a key given twice and nesting past 64 deep are refused, naming where', () => {
    const text = JSON.stringify(minimal);
    expect(parseScenarioText(`\ufeff${text}`)).toEqual(parseScenarioText(text));
    const twice = text.replace('"kind":"publish"', '"kind":"publish","key":"b"');
    expect(() => parseScenarioText(twice)).toThrow('Failed to load scenario: the file has the key "key" twice, in task.operations[0]. Fix the scenario file, or regenerate it with durasim.');
    const deep = text.replace('"body":"x"', `"body":${'['.repeat(50_000)}1${']'.repeat(50_000)}`);
    expect(() => parseScenarioText(deep)).toThrow(/^Failed to load scenario: the file nests arrays and objects more than 64 deep \(at character \d+\), over the limit of 64\. Fix the scenario file, or regenerate it with durasim\.$/);
  });
});

describe('saved scenarios stay loadable', () => {
  test('every committed scenario file parses under the strict fields', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('../../reports/', import.meta.url).pathname;
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith('.json') && !['bench.json', 'mutants.json', 'detection.json'].includes(entry.name) && !dir.endsWith('/out')) files.push(join(dir, entry.name));
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(40);
    for (const file of files.filter((f) => !f.includes('/out/'))) expect(() => parseScenarioText(readFileSync(file, 'utf8')), file).not.toThrow();
  });
});

describe('the limits, word for word', () => {
  const refused = (value: unknown): string => {
    try {
      parseScenario(value);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };
  const op = (patch: Record<string, unknown>) => ({ ...minimal, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x', ...patch }] } });
  test('a name that is not a string, and texts past their lengths', () => {
    expect(refused({ ...minimal, name: [[[]]] })).toBe('Failed to load scenario: name must be a string, found an array. Fix the scenario file, or regenerate it with durasim.');
    expect(refused(op({ key: 'k'.repeat(1024 * 1024) }))).toBe('Failed to load scenario: task.operations[0].key is 1048576 characters long, over the limit of 200. Shorten it: a scenario is a test case, not a data set.');
    expect(refused(op({ body: 'b'.repeat(262_145) }))).toBe('Failed to load scenario: task.operations[0].body is 262145 characters long, over the limit of 262144. Shorten it: a scenario is a test case, not a data set.');
    expect(refused(op({ body: 'b'.repeat(262_144) }))).toBe('accepted');
  });
  test('paths as Linux allows them: a name of at most 255 bytes, the whole under 4,096', () => {
    const temp = (dir: string) => ({ ...minimal, task: { ...minimal.task, temp: { dir, retentionMs: 0 } } });
    expect(refused(temp('t'.repeat(100_000)))).toBe("Failed to load scenario: task.temp.dir must be under Linux's PATH_MAX (at most 4095 bytes), found 100000 bytes. Use a relative path such as \"article.txt\" or \"docs/notes.md\".");
    expect(refused(temp('t'.repeat(300)))).toBe("Failed to load scenario: task.temp.dir must name files and folders within Linux's NAME_MAX (255 bytes each), found a name of 300 bytes. Use a relative path such as \"article.txt\" or \"docs/notes.md\".");
    expect(refused(temp('é'.repeat(128)))).toMatch(/found a name of 256 bytes\./);
    expect(refused(temp('t'.repeat(255)))).toBe('accepted');
    expect(refused(temp('d/'.repeat(2048) + 'd'))).toBe("Failed to load scenario: task.temp.dir must be under Linux's PATH_MAX (at most 4095 bytes), found 4097 bytes. Use a relative path such as \"article.txt\" or \"docs/notes.md\".");
    expect(refused({ ...minimal, files: { ['f'.repeat(300)]: 'x' } })).toMatch(/^Failed to load scenario: files key "f{59}… \(302 characters\) must name files/);
  });
  test('lists, maps and numbers', () => {
    expect(refused({ ...minimal, faults: Array.from({ length: 1001 }, () => ({ kind: 'service-restart', atStep: 1 })) })).toBe('Failed to load scenario: faults holds 1001 entries, over the limit of 1000. Fix the scenario file, or regenerate it with durasim.');
    expect(refused({ ...minimal, environment: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`V${i}`, 'x'])) })).toBe('Failed to load scenario: environment holds 1001 entries, over the limit of 1000. Fix the scenario file, or regenerate it with durasim.');
    expect(refused({ ...minimal, faults: [{ kind: 'service-restart', atStep: 1e300 }] })).toBe('Failed to load scenario: faults[0].atStep is 1e+300, over the limit of 9007199254740991. Fix the scenario file, or regenerate it with durasim.');
    expect(refused({ ...minimal, bounds: { maxSteps: 1_000_001 } })).toBe('Failed to load scenario: bounds.maxSteps is 1000001, over the limit of 1000000. Fix the scenario file, or regenerate it with durasim.');
    expect(refused({ ...minimal, task: { ...minimal.task, id: 'a\u0000b' } })).toBe('Failed to load scenario: task.id must use only letters, digits, ".", "_" and "-" (it names files and store keys), found "a\\u0000b". Fix the scenario file, or regenerate it with durasim.');
    expect(refused({ ...minimal, regression: 'x' })).toBe('Failed to load scenario: regression must be an object (what durasim recorded when it saved the scenario), found "x". Fix the scenario file, or regenerate it with durasim.');
  });
});
