import { describe, expect, test } from 'vitest';
import { errorText } from './errorText.js';

describe('an error as the trace says it', () => {
  test('JSON.parse\'s SyntaxError reads the same on every Node line (V8 12 appends the line and column)', () => {
    expect(errorText(new SyntaxError("Expected property name or '}' in JSON at position 1 (line 1 column 2)"))).toBe("SyntaxError: Expected property name or '}' in JSON at position 1");
    let thrown: unknown;
    try {
      JSON.parse('{x');
    } catch (error) {
      thrown = error;
    }
    expect(errorText(thrown)).toBe("SyntaxError: Expected property name or '}' in JSON at position 1");
  });

  test('other errors are said as they are', () => {
    expect(errorText(new TypeError('x (line 1 column 2)'))).toBe('TypeError: x (line 1 column 2)');
    expect(errorText('a string')).toBe('a string');
  });
});
