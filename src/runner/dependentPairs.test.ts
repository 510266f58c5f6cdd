import { describe, expect, test } from 'vitest';
import { baseScenario } from '../arbitraries.js';
import { byDependency, dependencyNames, dependentPairs } from './dependentPairs.js';

const at = (globalStep: number, ...touches: string[]) => ({ globalStep, touches });

describe('dependentPairs', () => {
  test('the names a key touch is read by: the operations\' keys and the resources they read or plan from', () => {
    const scenario = baseScenario([
      { kind: 'publish', key: 'post-a', body: 'a', input: { resource: 'config', version: 'v1' } },
      { kind: 'lookup', key: 'read-config', resource: 'limits' },
      { kind: 'edit', key: 'edit-notes', path: 'notes.md', append: 'x' },
    ]);
    expect(dependencyNames(scenario)).toEqual(['post-a', 'read-config', 'edit-notes', 'config', 'limits']);
  });

  test('only the points touching what the first fault\'s step touched are kept, with their closest dependency and distance', () => {
    const first = at(10, 'key post-a', 'file journal.jsonl');
    const continuation = [at(11, 'key post-b', 'file journal.jsonl'), at(12, 'file notes.md'), at(14, 'key post-a'), at(15), at(20, 'lease task-1')];
    const kept = dependentPairs(3, first, continuation);
    expect(kept.map((p) => [p.index, p.kind, p.distance, p.first])).toEqual([[0, 'file', 1, 3], [2, 'key', 4, 3]]);
  });

  test('kept pairs are tried the same key first, then file, store entry, lease; then the nearest steps; then exploration order', () => {
    const pair = (first: number, index: number, kind: 'key' | 'file' | 'store' | 'lease', distance: number) => ({ first, index, kind, distance, point: at(0) });
    const pairs = [pair(0, 0, 'lease', 0), pair(0, 1, 'file', 1), pair(1, 0, 'key', 9), pair(0, 2, 'key', 2), pair(2, 0, 'store', 0), pair(1, 1, 'key', 2)];
    expect(pairs.sort(byDependency).map((p) => `${p.kind}/${p.distance}/${p.first}.${p.index}`)).toEqual(['key/2/0.2', 'key/2/1.1', 'key/9/1.0', 'file/1/0.1', 'store/0/2.0', 'lease/0/0.0']);
  });
});
