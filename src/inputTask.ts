/**
 * A task from the journal's own data (issue 54): a worker that reads its work from an input file
 * of its own (payouts.json in its work folder: records with an id and an amount) declares how its
 * intents are derived, and durasim derives the task's operations from the same file — one publish
 * per record, its key at `key`, its intent the body `body` renders for the record — so the judge
 * knows which effects the task should cause ("one effect per key", "finished without an effect for
 * po_1002") without the journal reading durasim's task.operations. The file is put in the work
 * folder (at `as`, default its name) of every run, durable, as the user's files are.
 *
 * durasim.config.json: "input": { "file": "payouts.json", "items": "/payouts", "key": "/id",
 * "body": { "amount": "{{item:/amount}}", "currency": "{{item:/currency}}" } }. `items` is the
 * pointer to the array of records ("" — the default — when the file is the array); `body` is a
 * JSON template ({{item:/pointer}} takes a value of the record; default: the record itself).
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DurasimError } from '../model/contract/failure.js';
import { getAt, pointerTokens } from '../simulator/contract/jsonPointer.js';
import { renderTemplate } from '../simulator/contract/template.js';
import { parseScenario, scenarioToJson, type Scenario } from '../simulator/scenario/scenario.js';
import { SCENARIO_LIMITS } from '../simulator/scenario/scenarioLimits.js';
import { baseScenario } from './arbitraries.js';

export interface InputSpec {
  file: string;
  items: string;
  key: string;
  body?: unknown;
  as?: string;
}

const FIX = 'Write e.g. "input": { "file": "payouts.json", "items": "/payouts", "key": "/id", "body": { "amount": "{{item:/amount}}" } } (docs/service-contract.md)';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The "input" key of a config, checked; its file relative to the config's folder. */
export function parseInputSpec(value: unknown, refuse: (reason: string, fix: string) => DurasimError): InputSpec {
  if (!isRecord(value)) throw refuse(`says "input": ${JSON.stringify(value)}, which is not an object`, FIX);
  for (const key of Object.keys(value)) if (!['file', 'items', 'key', 'body', 'as'].includes(key)) throw refuse(`says "input" has "${key}", which durasim does not know`, 'Use file, items, key, body, as');
  if (typeof value.file !== 'string' || value.file.trim() === '') throw refuse(`says "input.file": ${JSON.stringify(value.file)}, which is not a path`, FIX);
  const pointer = (field: 'items' | 'key', given: unknown, fallback?: string): string => {
    const text = given ?? fallback;
    if (typeof text !== 'string' || pointerTokens(text) === undefined) throw refuse(`says "input.${field}": ${JSON.stringify(given)}, which is not a JSON pointer ("" or starting with "/")`, FIX);
    return text;
  };
  const spec: InputSpec = { file: value.file, items: pointer('items', value.items, ''), key: pointer('key', value.key) };
  if (value.body !== undefined) spec.body = value.body;
  if (value.as !== undefined) {
    if (typeof value.as !== 'string' || value.as.trim() === '') throw refuse(`says "input.as": ${JSON.stringify(value.as)}, which is not a path in the work folder`, FIX);
    spec.as = value.as;
  }
  return spec;
}

/** The task the input file holds: a scenario whose operations are its records, and whose work folder holds the file. */
export function inputTask(spec: InputSpec, configDir: string): { file: string; scenario: Scenario } {
  const path = resolve(configDir, spec.file);
  const failed = (reason: string, fix = FIX): DurasimError => new DurasimError('read the task\'s input', `${spec.file} ${reason}`, fix);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw failed(`could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'Fix "input.file": a path relative to the config\'s folder');
  }
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error) {
    throw failed(`is not JSON (${(error as Error).message})`, 'A task\'s input is a JSON file of records');
  }
  const items = getAt(data, spec.items);
  if (!Array.isArray(items) || items.length === 0) throw failed(`holds no list of records at ${JSON.stringify(spec.items)}`, 'Point "input.items" at the array of records ("" when the file is the array)');
  if (items.length > SCENARIO_LIMITS.operations) throw failed(`holds ${items.length} records, over the limit of ${SCENARIO_LIMITS.operations}`, 'A task is a test case: give it a smaller input');
  const seen = new Set<string>();
  const operations = items.map((item, i) => {
    const raw = getAt(item, spec.key);
    const key = typeof raw === 'number' ? String(raw) : raw;
    if (typeof key !== 'string' || !/^[A-Za-z0-9._-]+$/.test(key)) throw failed(`has a record (${i}) whose key at ${JSON.stringify(spec.key)} is ${JSON.stringify(raw)}, not a key of letters, digits, ".", "_" and "-"`, 'Point "input.key" at each record\'s id');
    if (seen.has(key)) throw failed(`has two records with the key ${JSON.stringify(key)}`, 'Give every record its own id');
    seen.add(key);
    const body = JSON.stringify(spec.body === undefined ? item : renderTemplate(spec.body, { values: {}, item }));
    return { kind: 'publish' as const, key, body };
  });
  const scenario = baseScenario(operations);
  scenario.files = { [spec.as ?? basename(spec.file)]: text };
  // Checked as every scenario is (paths, limits), so a bad input is refused here, not in a run.
  return { file: spec.file, scenario: parseScenario(scenarioToJson(scenario)) };
}
