/**
 * Mutated scenarios, as a careless tool or a hostile file would write them: every committed
 * scenario with one to three of its values replaced (by any JSON, a long string, a deep nest, an
 * extreme number), deleted, or repeated. Whatever comes of it is a verdict durasim can give — refused
 * as bad input (exit 2) or run to clean, safety or liveness (0, 1, 3) within the scenario's bounds —
 * never durasim's own failure (5) and never a run past its bounds.
 *
 * To look at what the fuzzer finds: DURASIM_FUZZ_TALLY=1 prints the exit codes' tally, and
 * DURASIM_FUZZ_DUMP=<dir> writes every mutated scenario that ended in a finding (exit 1 or 3) there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { DurasimError } from '../model/contract/failure.js';
import { judge } from '../model/judge.js';
import { referenceJournal } from '../src/journals/reference.js';
import { parseScenario, parseScenarioText, type Scenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

const ROOT = new URL('../reports', import.meta.url).pathname;
function scenarioFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scenarioFiles(path);
    return name.endsWith('.json') && (JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown }).format === 'durasim.scenario' ? [path] : [];
  });
}
const SEEDS = scenarioFiles(ROOT).map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown);

type Json = unknown;
/** Every place in a JSON value, as a path of keys and indices (walked without recursion: a value may be nested thousands deep). */
function places(root: Json): (string | number)[][] {
  const out: (string | number)[][] = [];
  const todo: [Json, (string | number)[]][] = [[root, []]];
  while (todo.length > 0) {
    const [value, at] = todo.pop() as [Json, (string | number)[]];
    out.push(at);
    if (at.length > 64) continue; // deep inside a nest the fuzzer made: nothing more to learn there
    if (Array.isArray(value)) value.forEach((v, i) => todo.push([v, [...at, i]]));
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) todo.push([v, [...at, k]]);
  }
  return out;
}

/** replace: any value; nudge: a number becomes another whole number, a boolean flips (the input stays of its type, so it runs); delete; repeat an array's entry. */
type Mutation = { kind: 'replace'; value: Json } | { kind: 'nudge'; n: number } | { kind: 'delete' } | { kind: 'repeat'; times: number };
/** `root` with the value at `path` mutated: the containers on the path are copied, nothing else (a value may be nested thousands deep). */
function mutate(root: Json, path: (string | number)[], mutation: Mutation): Json {
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : mutation.kind === 'delete' ? undefined : root;
  if (mutation.kind === 'nudge' && typeof path.at(-1) === 'string' && ['format', 'version'].includes(path.at(-1) as string)) return root;
  const shallow = (value: Json): Record<string | number, Json> => (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, Json>;
  const copy = shallow(root);
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] = shallow(parent[step]);
  const last = path.at(-1) as string | number;
  if (mutation.kind === 'replace') parent[last] = mutation.value;
  else if (mutation.kind === 'nudge') {
    if (typeof parent[last] === 'number') parent[last] = mutation.n;
    else if (typeof parent[last] === 'boolean') parent[last] = !parent[last];
  } else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (Array.isArray(parent)) parent.splice(last as number, 0, ...Array.from({ length: mutation.times }, () => parent[last]));
  return copy;
}

const nest = (depth: number): Json => {
  let value: Json = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const nasty: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(-1, 0, 1, 1.5, 2 ** 53, 1e300, -0, '', 'x'.repeat(256), 'é'.repeat(200), 'y'.repeat(100_000), '../x', '/etc/passwd', 'a\u0000b', null, true, {}, []),
  fc.integer({ min: 1, max: 5000 }).map(nest),
  fc.string({ maxLength: 40 }),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: nasty.map((value) => ({ kind: 'replace' as const, value })), weight: 4 },
  { arbitrary: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 100_000 })).map((n) => ({ kind: 'nudge' as const, n })), weight: 4 },
  { arbitrary: fc.constant({ kind: 'delete' as const }), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 50 }).map((times) => ({ kind: 'repeat' as const, times })), weight: 1 },
);
const mutated = fc
  .record({ seedIndex: fc.nat({ max: SEEDS.length - 1 }), edits: fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }) })
  .map(({ seedIndex, edits }) => edits.reduce((value, [at, m]) => {
    const all = places(value);
    return mutate(value, all[at % all.length] as (string | number)[], m);
  }, SEEDS[seedIndex] as Json));

/** The exit code durasim gives this scenario with the reference journal, and the run's stats when it ran. */
async function outcome(value: Json): Promise<{ exit: number; scenario?: Scenario; stats?: { steps: number; incarnations: number; virtualTimeMs: number } }> {
  let scenario: Scenario;
  try {
    scenario = parseScenario(value);
  } catch (error) {
    if (error instanceof DurasimError && error.action === 'load scenario') return { exit: 2 };
    throw error;
  }
  const result = await simulate(referenceJournal, scenario);
  const violations = judge(result);
  const exit = violations.some((v) => v.code !== 'convergence') ? 1 : violations.length > 0 ? 3 : 0;
  if (process.env.DURASIM_FUZZ_DUMP && exit % 2 === 1) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${process.env.DURASIM_FUZZ_DUMP}/${exit}-${result.traceHash.slice(0, 8)}.json`, JSON.stringify({ scenario: value, violations: violations.map((v) => `${v.code} ${v.key}: ${v.actual}`) }, null, 1));
  }
  return { exit, scenario, stats: result.stats };
}

const tally = new Map<number, number>();

describe('mutated scenarios', () => {
  test('the seeds are the committed scenarios, and every one of them runs', () => {
    expect(SEEDS.length).toBeGreaterThan(40);
  });

  test.prop([mutated], { numRuns: runs(5000), seed: seed(28) })('end in exit 0–3 within their bounds, never in durasim failing', async (value) => {
    const { exit, scenario, stats } = await outcome(value);
    tally.set(exit, (tally.get(exit) ?? 0) + 1);
    expect([0, 1, 2, 3]).toContain(exit);
    if (scenario && stats) {
      expect(stats.steps).toBeLessThanOrEqual(scenario.bounds.maxSteps + 1);
      // maxIncarnations bounds each worker slot; a duplicate delivery adds a worker.
      const workers = 1 + scenario.faults.filter((f) => f.kind === 'duplicate-delivery').length;
      expect(stats.incarnations).toBeLessThanOrEqual(scenario.bounds.maxIncarnations * workers);
      expect(stats.virtualTimeMs).toBeLessThanOrEqual(scenario.bounds.maxVirtualTimeMs + 60_000);
    }
  }, PROPERTY_TIMEOUT_MS);

  test('exercise both sides: some are refused, and at least a tenth run (a fuzzer whose every input is refused proves nothing about the runs)', () => {
    const total = [...tally.values()].reduce((a, b) => a + b, 0);
    if (process.env.DURASIM_FUZZ_TALLY) console.log(Object.fromEntries(tally));
    expect(tally.get(2) ?? 0).toBeGreaterThan(0);
    expect(total - (tally.get(2) ?? 0)).toBeGreaterThanOrEqual(total / 10);
  });

  test('the file as a whole: refused past its size limit, as text that is not JSON, and as JSON that is not an object', () => {
    expect(() => parseScenarioText(' '.repeat(8 * 1024 * 1024 + 1))).toThrow(/^Failed to load scenario: the file is 8388609 characters long, over the limit of 8388608\. /);
    expect(() => parseScenarioText('{"format": ')).toThrow(/^Failed to load scenario: the file is not valid JSON/);
    expect(() => parseScenarioText('[]')).toThrow(/^Failed to load scenario: the scenario must be a JSON object, found an array\. /);
  });
});
