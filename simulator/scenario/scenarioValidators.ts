/**
 * The validators of untrusted scenario JSON: each checks one value and, when it is wrong, throws
 * `Failed to load scenario: <field> <problem>. <fix>` naming the field's path.
 */
import { DurasimError } from '../../model/contract/failure.js';
import { pathProblem, unknownField } from './scenarioFields.js';
import { SCENARIO_LIMITS } from './scenarioLimits.js';

export type Json = unknown;
const FIX = 'Fix the scenario file, or regenerate it with durasim.';

export function fail(field: string, problem: string, fix = FIX): never {
  throw new DurasimError('load scenario', `${field} ${problem}`, fix);
}
export function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** A text (at most SCENARIO_LIMITS.textChars characters, or `max`). */
export function str(value: Json, field: string, max: number = SCENARIO_LIMITS.textChars): string {
  if (typeof value !== 'string') fail(field, `must be a string, found ${describe(value)}`);
  if (value.length > max) fail(field, `is ${value.length} characters long, over the limit of ${max}`, 'Shorten it: a scenario is a test case, not a data set.');
  return value;
}
/** An identifier: a non-empty string of at most SCENARIO_LIMITS.nameChars characters. */
export function nonEmptyStr(value: Json, field: string): string {
  const text = str(value, field, SCENARIO_LIMITS.nameChars);
  if (text.length === 0) fail(field, 'must not be empty');
  return text;
}
export function int(value: Json, field: string, min = 0, max: number = SCENARIO_LIMITS.integer): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail(field, `must be an integer >= ${min}, found ${describe(value)}`);
  }
  if (value > max) fail(field, `is ${value}, over the limit of ${max}`);
  return value;
}
export function bool(value: Json, field: string): boolean {
  if (typeof value !== 'boolean') fail(field, `must be true or false, found ${describe(value)}`);
  return value;
}
export function oneOf<T extends string>(value: Json, allowed: readonly T[], field: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(field, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, found ${describe(value)}`);
  }
  return value as T;
}
export function arr(value: Json, field: string, max: number = SCENARIO_LIMITS.entries): Json[] {
  if (!Array.isArray(value)) fail(field, `must be an array, found ${describe(value)}`);
  if (value.length > max) fail(field, `holds ${value.length} entries, over the limit of ${max}`);
  return value;
}
/** The entries of an object used as a map (file → text, name → value): at most SCENARIO_LIMITS.entries. */
export function mapEntries(value: Json, field: string, what: string): [string, Json][] {
  if (!isRecord(value)) fail(field, `must be an object of ${what}, found ${describe(value)}`);
  const entries = Object.entries(value);
  if (entries.length > SCENARIO_LIMITS.entries) fail(field, `holds ${entries.length} entries, over the limit of ${SCENARIO_LIMITS.entries}`);
  return entries;
}
export function describe(value: Json): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return shown(JSON.stringify(value));
}
/** A value as a message quotes it: cut to 80 characters, with its length, when longer. */
export function shown(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}
export function optional<T>(record: Record<string, Json>, key: string, parse: (v: Json) => T, fallback: T): T {
  return record[key] === undefined ? fallback : parse(record[key]);
}

/** Refuses a field the format does not know, naming the one it was probably meant to be. */
export function strict(record: Record<string, Json>, field: string, known: readonly string[], required: readonly string[] = []): void {
  const unknown = unknownField(record, known, required);
  if (unknown === undefined) return;
  const at = field === '' ? unknown.field : `${field}.${unknown.field}`;
  fail(at, 'is not a known field', unknown.suggestion !== undefined ? `Did you mean ${JSON.stringify(unknown.suggestion)}?` : `Known fields here: ${known.join(', ')}.`);
}

/** A record whose kind is missing but whose other field holds a kind's name: that field was meant to be "kind". */
export function misnamedKind(value: Record<string, Json>, kinds: readonly string[], field: string): void {
  if (value.kind !== undefined) return;
  const misnamed = Object.keys(value).find((key) => typeof value[key] === 'string' && kinds.includes(value[key] as string));
  if (misnamed !== undefined) fail(`${field}.${misnamed}`, 'is not a known field', 'Did you mean "kind"?');
}

/** A path inside the work dir: relative, canonical, no NUL byte. */
export function relativePath(value: Json, field: string): string {
  const path = str(value, field);
  const problem = pathProblem(path);
  if (problem !== undefined) fail(field, `${problem}${problem.includes(', found ') ? '' : `, found ${shown(JSON.stringify(path))}`}`, 'Use a relative path such as "article.txt" or "docs/notes.md".');
  return path;
}

