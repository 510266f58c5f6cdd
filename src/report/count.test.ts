import { expect, test } from 'vitest';
import { count } from './count.js';

test('count says 1 run, 2 runs, 1 incarnation, 0 incarnations', () => {
  expect([count(1, 'run'), count(2, 'run'), count(1, 'incarnation'), count(0, 'incarnation'), count(1, 'child', 'children'), count(3, 'child', 'children')]).toEqual(['1 run', '2 runs', '1 incarnation', '0 incarnations', '1 child', '3 children']);
});
