import { expect, test } from 'vitest';
import { checkWorkers, defaultWorkers, RUNS_PER_WORKER } from './defaultWorkers.js';

test('a worker for every 50 runs of the budget, at least one, at most the cores', () => {
  expect(RUNS_PER_WORKER).toBe(50);
  expect(defaultWorkers(0, 16)).toBe(1);
  expect(defaultWorkers(5, 16)).toBe(1);
  expect(defaultWorkers(50, 16)).toBe(1);
  expect(defaultWorkers(51, 16)).toBe(2);
  expect(defaultWorkers(300, 16)).toBe(6);
  expect(defaultWorkers(1000, 16)).toBe(16);
  expect(defaultWorkers(1000, 2)).toBe(2);
  expect(defaultWorkers(100, 2)).toBe(2);
  expect(defaultWorkers(1000, 1)).toBe(1);
});

test('a check searches on its default and shrinks on every core, unless told how many workers', () => {
  expect(checkWorkers(50, undefined, 8)).toEqual({ search: 1, shrink: 8 });
  expect(checkWorkers(1000, undefined, 8)).toEqual({ search: 8, shrink: 8 });
  expect(checkWorkers(50, 3, 8)).toEqual({ search: 3, shrink: 3 });
});
