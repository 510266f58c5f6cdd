import { describe, expect, test } from 'vitest';
import { JsonTextError, parseJsonText } from './jsonText.js';

const problem = (text: string): string => {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonTextError) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('parseJsonText: the JSON of every file durasim reads', () => {
  test('a leading UTF-8 byte-order mark is skipped (a Windows editor writes one); one elsewhere is no JSON', () => {
    expect(parseJsonText('\ufeff{ "runs": 3 }')).toEqual({ runs: 3 });
    expect(parseJsonText('\ufeff[1]')).toEqual([1]);
    expect(problem('{ "runs": 3 }\ufeff')).toMatch(/^is not valid JSON \(.+\)$/);
  });

  test('a key given twice in one object is refused, naming the key and where it is', () => {
    expect(problem('{ "runs": 1, "runs": 2 }')).toBe('has the key "runs" twice, at the top level');
    expect(problem('{ "bounds": { "maxSteps": 1, "maxSteps": 2 } }')).toBe('has the key "maxSteps" twice, in bounds');
    expect(problem('{ "faults": [{ "kind": "crash" }, { "kind": "crash", "process": 0, "kind": "io-error" }] }')).toBe('has the key "kind" twice, in faults[1]');
    expect(problem('{ "a": [[{}], [{ "b": { "c": 1, "c": 1 } }]] }')).toBe('has the key "c" twice, in a[1][0].b');
    expect(problem('{ "files": { "a b.txt": { "x": 1, "x": 1 } } }')).toBe('has the key "x" twice, in files["a b.txt"]');
    // The same key written two ways is the same key.
    expect(problem('{ "a": 1, "\\u0061": 2 }')).toBe('has the key "a" twice, at the top level');
    // The same key in two objects, or as a value, is no repetition; nor is a brace or a quote inside a string.
    expect(parseJsonText('{ "a": { "a": "a" }, "b": [{ "a": 1 }, { "a": 2 }], "c": "{\\"a\\": 1, \\"a\\": 2}", "d": "}", "e": "a" }')).toEqual({ a: { a: 'a' }, b: [{ a: 1 }, { a: 2 }], c: '{"a": 1, "a": 2}', d: '}', e: 'a' });
    // Text that is not JSON is said to be so, whatever else the scan saw.
    expect(problem('{ "a": 1, "a": ')).toMatch(/^is not valid JSON \(.+\)$/);
  });

  test('nesting past the limit is refused by the scan, naming the limit, before JSON.parse or anything recurses', () => {
    const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(parseJsonText(nested(64))).toBeDefined();
    expect(problem(nested(65))).toBe('nests arrays and objects more than 64 deep (at character 321), over the limit of 64');
    expect(problem('['.repeat(65) + ']'.repeat(65))).toBe('nests arrays and objects more than 64 deep (at character 65), over the limit of 64');
    // 50,000 deep: refused at the 65th level by the scan (an unclosed one too: JSON.parse never sees it).
    expect(problem(`{"env":${nested(50_000)}}`)).toBe('nests arrays and objects more than 64 deep (at character 323), over the limit of 64');
    expect(problem('['.repeat(50_000))).toBe('nests arrays and objects more than 64 deep (at character 65), over the limit of 64');
    // Brackets inside strings do not nest.
    expect(parseJsonText(JSON.stringify({ a: '['.repeat(1000) }))).toEqual({ a: '['.repeat(1000) });
    expect(problem('[[1]]')).toBe('accepted');
    expect(parseJsonText('[[[1]]]', 3)).toEqual([[[1]]]);
    expect(() => parseJsonText('[[[[1]]]]', 3)).toThrow('nests arrays and objects more than 3 deep (at character 4), over the limit of 3');
  });

  test('a long key is cut in the message', () => {
    const key = 'k'.repeat(10_000);
    expect(problem(`{ "${key}": 1, "${key}": 2 }`)).toBe(`has the key "${'k'.repeat(40)}… (10000 characters)" twice, at the top level`);
  });
});
