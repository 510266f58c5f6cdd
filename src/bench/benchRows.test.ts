import { describe, expect, test } from 'vitest';
import { nodeLine, withRow } from './benchRows.js';

describe("reports/bench.json: a row per Node line", () => {
  test('the line of a version', () => {
    expect(nodeLine('v24.22.3')).toBe(24);
    expect(nodeLine('20.20.2')).toBe(20);
  });

  test("a run writes its line's row and keeps the others; a file of one report becomes its line's row", () => {
    const old = { node: 'v20.20.2', cores: 2, floor: { msPerRun: 0.27 } };
    const first = withRow(old, { node: 'v24.22.3' });
    expect(first).toEqual({ '20': old, '24': { node: 'v24.22.3' } });
    const again = withRow(first, { node: 'v22.23.5' });
    expect(Object.keys(again)).toEqual(['20', '22', '24']);
    expect(withRow(again, { node: 'v24.1.0' })['24']).toEqual({ node: 'v24.1.0' });
    expect(withRow(undefined, { node: 'v24.22.3' })).toEqual({ '24': { node: 'v24.22.3' } });
  });
});
