import { expect, test } from 'vitest';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { BASE_WALL_LIMIT_MS, defaultWallLimitMs, realWaitsMs } from './realWaits.js';

test("a real run's default wall limit is a minute plus every wait its faults make it sit through, so a journal that waits as asked is never cut short", () => {
  const task = { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] };
  expect(defaultWallLimitMs(parseScenario({ format: 'durasim.scenario', version: 3, task }))).toBe(BASE_WALL_LIMIT_MS);
  const waits = parseScenario({
    format: 'durasim.scenario',
    version: 3,
    task,
    faults: [
      { kind: 'response', request: 0, fault: 'unavailable', retryAfterMs: 60_000 },
      { kind: 'response', request: 1, fault: 'unavailable' },
      { kind: 'response', request: 2, fault: 'delay', delayMs: 500 },
      { kind: 'pause', process: 0, step: 3, pauseMs: 30_000 },
      { kind: 'takeover', atStep: 4, holdMs: 20_000 },
      { kind: 'crash', process: 0, step: 5, when: 'after' },
    ],
  });
  expect(realWaitsMs(waits)).toBe(60_000 + 1_000 + 500 + 30_000 + 20_000);
  expect(defaultWallLimitMs(waits)).toBe(BASE_WALL_LIMIT_MS + 111_500);
});
