import { describe, expect, test } from 'vitest';
import { editDistance, pathClash, pathProblem, suggestField, unknownField } from './scenarioFields.js';

describe('strict scenario fields', () => {
  test('edit distance counts insertions, deletions and substitutions', () => {
    expect(editDistance('fault', 'faults')).toBe(1);
    expect(editDistance('mdoe', 'mode')).toBe(2);
    expect(editDistance('kind', 'kind')).toBe(0);
  });

  test('a missing required field is the likeliest meaning of an unknown one', () => {
    expect(suggestField('fault', ['kind', 'process', 'step', 'when', 'mode'], ['kind'])).toBe('kind');
    expect(suggestField('stpe', ['kind', 'process', 'step', 'when'], [])).toBe('step');
    expect(suggestField('zzzzzzzz', ['kind', 'process'], [])).toBeUndefined();
  });

  test('every field known passes; the first unknown one is named', () => {
    expect(unknownField({ kind: 'crash' }, ['kind'])).toBeUndefined();
    expect(unknownField({ kind: 'crash', stpe: 1 }, ['kind', 'step'], ['kind', 'step'])).toEqual({ field: 'stpe', suggestion: 'step' });
  });

  test('paths: relative, canonical, no NUL; no file is another one\'s folder', () => {
    expect(pathProblem('notes.md')).toBeUndefined();
    expect(pathProblem('docs/notes.md')).toBeUndefined();
    for (const bad of ['', '/etc/passwd', '../x', 'a/../b', '.', './', 'a//b', 'a/', './a', 'a\u0000b']) expect(pathProblem(bad), JSON.stringify(bad)).toBeDefined();
    expect(pathClash(['a', 'b', 'a/b'])).toEqual(['a', 'a/b']);
    expect(pathClash(['a/b', 'a/c', 'ab'])).toBeUndefined();
  });
});
