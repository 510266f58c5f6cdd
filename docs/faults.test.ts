/**
 * docs/faults.md holds to the code: a section for every fault family, a row for every task feature
 * and config key, every snippet valid (the config by durasim's parser and its JSON Schema, each
 * fault inside a scenario by the scenario parser), and every invariant it names a real one.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { INVARIANT_CODES } from '../model/violation.js';
import { parseScenarioText } from '../simulator/scenario/scenario.js';
import { baseScenario, FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES } from '../src/arbitraries.js';
import { parseConfig } from '../src/cli/config.js';

const ROOT = resolve(import.meta.dirname, '..');
const text = readFileSync(join(ROOT, 'docs', 'faults.md'), 'utf8');
const snippets = [...text.matchAll(/```json\n([\s\S]+?)\n```/g)].map((m) => m[1] as string);

describe('docs/faults.md', () => {
  test('has a section for every fault family, in the order --faults lists them, and a row for every feature and operation kind', () => {
    expect([...text.matchAll(/^### `([a-z-]+)`$/gm)].map((m) => m[1])).toEqual([...FAULT_KINDS]);
    for (const feature of TASK_FEATURES) expect(text).toMatch(new RegExp(`^\\| \`${feature}\` \\|`, 'm'));
    for (const kind of OPERATION_KINDS) expect(text).toContain(`\`${kind}\` (`);
  });

  test('its config is one durasim reads and the JSON Schema accepts, and its key table names every key', () => {
    const config = snippets[0] as string;
    expect(() => parseConfig('durasim.config.json', config, ROOT)).not.toThrow();
    const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'config.schema.json'), 'utf8')) as object;
    expect(new Ajv().compile(schema)(JSON.parse(config))).toBe(true);
    for (const key of Object.keys(JSON.parse(config) as object).filter((k) => k !== '$schema')) expect(text).toMatch(new RegExp(`^\\| \`${key}\``, 'm'));
  });

  test('every fault it shows is one a scenario can hold', () => {
    const faults = snippets.slice(1);
    expect(faults).toHaveLength(FAULT_KINDS.length);
    for (const fault of faults) {
      const scenario = { ...baseScenario(), faults: [JSON.parse(fault)] };
      expect(() => parseScenarioText(JSON.stringify(scenario)), fault).not.toThrow();
    }
  });

  test('every invariant it names is one the judge has', () => {
    const named = [...text.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1] as string).filter((name) => !/^(keep-all|lose-unsynced|per-file|torn-tail|torn-write|drop-after-commit|service-restart|timeout-after-apply|io-error|user-edit|duplicate-delivery|concurrent-call|store-call)$/.test(name));
    expect(named.length).toBeGreaterThan(20);
    for (const name of named) expect(INVARIANT_CODES, name).toContain(name);
    const tested = new Set([...text.matchAll(/Tests ([^.]+)\./g)].flatMap((m) => [...(m[1] as string).matchAll(/`([a-z-]+)`/g)].map((n) => n[1])));
    expect(tested.size).toBeGreaterThan(15);
  });
});
