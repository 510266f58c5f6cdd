import { expect, test } from 'vitest';
import { perSecond } from './perSecond.js';

test('a rate prints with sensible precision: never 0/s for work that was done', () => {
  expect([perSecond(1000, 4), perSecond(7, 1.8), perSecond(9, 194.01), perSecond(0, 3), perSecond(1, 0)]).toEqual(['250/s', '3.9/s', '0.046/s', '0/s', '1000/s']);
});
