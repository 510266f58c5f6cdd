import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { preview, previewData } from './trace.js';

/** The preview as it was defined first: the whole text stringified, then cut. */
const wholePreview = (text: string, max = 120): string => {
  const flat = JSON.stringify(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…"` : flat;
};

describe('preview: only what can show is stringified or decoded, and it shows the same', () => {
  test('text: any string, any length around the cut, surrogates and control characters included', () => {
    fc.assert(fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\n', '"', '\\', '\u0000', '\ud83d', '\ude00', '😀', 'é'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 400 }), fc.integer({ min: 2, max: 130 }), (text, max) => {
      expect(preview(text, max)).toBe(wholePreview(text, max));
    }), { numRuns: 2000 });
  });

  test('bytes: any bytes, valid UTF-8 or not, decoded from a prefix only', () => {
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 800 }), fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n', '"'), maxLength: 300 }).map((s) => new TextEncoder().encode(s)));
    fc.assert(fc.property(bytes, fc.integer({ min: 2, max: 130 }), (data, max) => {
      expect(previewData(data, max)).toBe(wholePreview(Buffer.from(data).toString('utf8'), max));
    }), { numRuns: 2000 });
  });

  test('a view into a larger buffer shows its own bytes only', () => {
    const buffer = Buffer.from('xxxxhello worldyyyy');
    expect(previewData(buffer.subarray(4, 15))).toBe('"hello world"');
    expect(previewData('plain')).toBe('"plain"');
  });
});
