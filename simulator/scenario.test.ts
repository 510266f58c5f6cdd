import { describe, expect, test } from 'vitest';
import { baseScenario } from '../src/arbitraries.js';
import { DEFAULT_BOUNDS, parseScenario, parseScenarioText, scenarioToJson } from './scenario.js';

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

  test('the saved form drops defaults', () => {
    expect(scenarioToJson(parseScenario(minimal))).toEqual(minimal);
  });

  test.each([
    [{ ...minimal, format: 'other' }, 'Failed to load scenario: format must be "durasim.scenario", found "other". Is this a durasim scenario file?'],
    [{ ...minimal, version: 2 }, 'Failed to load scenario: version is 2, newer than this durasim understands (1). Upgrade durasim to replay this scenario.'],
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
    [{ ...minimal, random: [1.5] }, 'Failed to load scenario: random[0] must be a number in [0, 1), found 1.5. Fix the scenario file, or regenerate it with durasim.'],
    [{ ...minimal, schedule: [-1] }, 'Failed to load scenario: schedule[0] must be an integer >= 0, found -1. Fix the scenario file, or regenerate it with durasim.'],
  ])('rejects a malformed scenario with a house-style message (%#)', (input, message) => {
    expect(() => parseScenario(input)).toThrow(message);
  });

  test('bad JSON text gets the same style', () => {
    expect(() => parseScenarioText('{ nope')).toThrow(/^Failed to load scenario: the file is not valid JSON \(.+\)\. Fix the scenario file, or regenerate it with durasim\.$/);
  });
});
