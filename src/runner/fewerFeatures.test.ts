import { describe, expect, test } from 'vitest';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { featuredScenario } from '../arbitraries.js';
import { shapeOf } from '../taskShape.js';
import { earlierOccurrences, withFewerFeatures } from './fewerFeatures.js';

const cancel: Fault = { kind: 'cancel', at: { mentions: 'fs.open', occurrence: 5 } } as Fault;
const featured = (): Scenario => ({ ...featuredScenario(), faults: [cancel] });
const steps = (s: Scenario): number => 40 + shapeOf(s).features.length * 10;

describe('withFewerFeatures', () => {
  test('drops every feature the failure does not need, one at a time, while it fails the same way in no more steps', async () => {
    const start = featured();
    expect(shapeOf(start).features).toEqual(['token', 'budget', 'cancel', 'input', 'temp']);
    // The failure needs the cancel alone.
    const result = await withFewerFeatures(start, async (s) => (shapeOf(s).features.includes('cancel') ? steps(s) : undefined));
    expect(shapeOf(result.scenario).features).toEqual(['cancel']);
    expect(result.dropped).toEqual(['token', 'budget', 'input', 'temp']);
    expect(result.scenario.faults).toEqual([cancel]);
  });

  test('a feature whose steps came before an anchored fault: dropped with the fault moved to an earlier occurrence, when that still fails', async () => {
    // The failure needs the cancel at the 6th open; the temp folder's own open is one of the five before it.
    const failsAt = (s: Scenario): number | undefined => {
      const at = (s.faults[0] as { at?: { occurrence: number } } | undefined)?.at?.occurrence;
      const temp = shapeOf(s).features.includes('temp');
      return at === (temp ? 5 : 4) ? steps(s) : undefined;
    };
    const result = await withFewerFeatures(featured(), async (s) => failsAt(s));
    expect(shapeOf(result.scenario).features).not.toContain('temp');
    expect(result.scenario.faults[0]).toMatchObject({ at: { mentions: 'fs.open', occurrence: 4 } });
  });

  test('nothing is dropped when the failure needs it all, or when the scenario does not fail', async () => {
    const start = featured();
    const all = await withFewerFeatures(start, async (s) => (shapeOf(s).features.length === 5 ? 90 : undefined));
    expect(all.scenario).toBe(start);
    expect(all.dropped).toEqual([]);
    const none = await withFewerFeatures(start, async () => undefined);
    expect(none).toEqual({ scenario: start, attempts: 1, dropped: [] });
  });

  test('a candidate that fails in more steps is not taken', async () => {
    const start = featured();
    const result = await withFewerFeatures(start, async (s) => 200 - shapeOf(s).features.length * 10);
    expect(result.dropped).toEqual([]);
  });

  test('earlierOccurrences: an anchored fault 1..8 occurrences earlier, nearest first; a first occurrence or a numbered fault offers none', () => {
    expect(earlierOccurrences(featured()).map((s) => (s.faults[0] as { at: { occurrence: number } }).at.occurrence)).toEqual([4, 3, 2, 1, 0]);
    const far = { ...featured(), faults: [{ kind: 'cancel', at: { mentions: 'fs.open', occurrence: 20 } } as Fault] };
    expect(earlierOccurrences(far)).toHaveLength(8);
    expect(earlierOccurrences({ ...featured(), faults: [{ kind: 'cancel', at: { mentions: 'fs.open', occurrence: 0 } } as Fault] })).toEqual([]);
    expect(earlierOccurrences({ ...featured(), faults: [{ kind: 'cancel', atStep: 3 } as Fault] })).toEqual([]);
  });
});
