/**
 * Strict fields for untrusted scenario JSON: a field durasim does not know is refused with its
 * path and the field it was probably meant to be, never ignored (a typo must not turn a failing
 * counterexample into a pass). Paths are checked so that every one of them names the same file on
 * every machine: relative, canonical, no NUL byte, and no file that is also another one's folder.
 */
import { SCENARIO_LIMITS } from './scenarioLimits.js';

/** Linux's limits on a path (bytes of UTF-8). */
const PATH_BYTES = SCENARIO_LIMITS.pathBytes;
const NAME_BYTES = SCENARIO_LIMITS.pathNameBytes;

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/**
 * The field `unknown` was probably meant to be: a required field that is missing (the likeliest
 * misspelling), else the nearest known field within a third of its length (or one that contains
 * it: "steps" for "maxSteps"). Undefined when none is close.
 */
export function suggestField(unknown: string, known: readonly string[], missing: readonly string[] = []): string | undefined {
  const near = (field: string): boolean =>
    editDistance(unknown, field) <= Math.max(2, Math.floor(field.length / 3)) || (unknown.length >= 4 && field.toLowerCase().includes(unknown.toLowerCase()));
  const missingNear = missing.find(near);
  if (missingNear !== undefined) return missingNear;
  if (missing.length === 1) return missing[0];
  return [...known].sort((x, y) => editDistance(unknown, x) - editDistance(unknown, y)).find(near);
}

/** The first field of `record` not in `known`, with a suggestion; undefined when every field is known. */
export function unknownField(record: Record<string, unknown>, known: readonly string[], required: readonly string[] = []): { field: string; suggestion?: string } | undefined {
  const field = Object.keys(record).find((key) => !known.includes(key));
  if (field === undefined) return undefined;
  const missing = required.filter((key) => record[key] === undefined);
  const suggestion = suggestField(field, known, missing);
  return suggestion === undefined ? { field } : { field, suggestion };
}

/** Why `path` cannot name a file inside the work dir, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'must not be empty';
  if (Buffer.byteLength(path) > PATH_BYTES) return `must be under Linux's PATH_MAX (at most ${PATH_BYTES} bytes), found ${Buffer.byteLength(path)} bytes`;
  const long = path.split('/').find((part) => Buffer.byteLength(part) > NAME_BYTES);
  if (long !== undefined) return `must name files and folders within Linux's NAME_MAX (${NAME_BYTES} bytes each), found a name of ${Buffer.byteLength(long)} bytes`;
  if (path.includes('\u0000')) return 'must not contain a NUL byte';
  if (path.startsWith('/')) return 'must be relative to the work dir';
  const parts = path.split('/');
  if (parts.includes('..')) return 'must stay inside the work dir (no "..")';
  if (parts.some((part) => part === '' || part === '.')) return 'must be a plain relative path (no "." segment, empty segment or trailing "/")';
  return undefined;
}

/** The first pair of paths where one is a folder of the other ("a" and "a/b"), if any. */
export function pathClash(paths: readonly string[]): [string, string] | undefined {
  const files = new Set(paths);
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (files.has(folder)) return [folder, path];
    }
  }
  return undefined;
}
