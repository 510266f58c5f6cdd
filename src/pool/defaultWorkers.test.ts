import { expect, test } from 'vitest';
import { defaultWorkers, RUNS_PER_WORKER } from './defaultWorkers.js';

test('a worker for every 200 runs of the budget, at least one, at most the cores', () => {
  expect(RUNS_PER_WORKER).toBe(200);
  expect(defaultWorkers(0, 16)).toBe(1);
  expect(defaultWorkers(5, 16)).toBe(1);
  expect(defaultWorkers(200, 16)).toBe(1);
  expect(defaultWorkers(201, 16)).toBe(2);
  expect(defaultWorkers(1000, 16)).toBe(5);
  expect(defaultWorkers(1000, 2)).toBe(2);
  expect(defaultWorkers(100_000, 16)).toBe(16);
  expect(defaultWorkers(1000, 1)).toBe(1);
});
