import { describe, expect, test } from 'vitest';
import { closestName, editDistance } from './closestName.js';

const FLAGS = ['journal', 'runs', 'seed', 'time-budget', 'faults', 'shard', 'report-dir', 'junit', 'json', 'regressions', 'tally', 'invariants', 'safety-only', 'confirm', 'workers', 'max-heap', 'hang-timeout'];

describe('editDistance', () => {
  test.each([
    ['runs', 'runs', 0],
    ['runz', 'runs', 1],
    ['rusn', 'runs', 1],
    ['journl', 'journal', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closestName', () => {
  test.each([
    ['runz', 'runs'],
    ['jounral', 'journal'],
    ['seeed', 'seed'],
    ['timebudget', 'time-budget'],
    ['Workers', 'workers'],
    ['safety', 'safety-only'],
    ['hang', 'hang-timeout'],
    ['reportdir', 'report-dir'],
  ])('%s means %s', (typed, meant) => {
    expect(closestName(typed, FLAGS)).toBe(meant);
  });

  test.each(['frobnicate', 'x', 'verbose', 're'])('%s means nothing near enough', (typed) => {
    expect(closestName(typed, FLAGS)).toBeUndefined();
  });

  test('a name far longer than every candidate means nothing, as near the edge as it can be', () => {
    expect(closestName('x'.repeat(1 << 20), FLAGS)).toBeUndefined();
    expect(closestName('hang-timeouts', FLAGS)).toBe('hang-timeout'); // one longer: still a typo of it
    expect(closestName('runsss', ['runs'])).toBeUndefined(); // two longer than a 4-letter name: past a third of it
    expect(closestName('runss', ['runs'])).toBe('runs');
  });

  test('commands too', () => {
    expect(closestName('chekc', ['check', 'replay', 'explain', 'confirm', 'explore', 'mutants', 'merge'])).toBe('check');
    expect(closestName('explor', ['check', 'replay', 'explain', 'confirm', 'explore', 'mutants', 'merge'])).toBe('explore');
  });
});
