import { describe, expect, test } from 'vitest';
import { DEFAULT_BOUNDS, parseScenario, type Scenario } from './scenario.js';
import { boundsInForce, timeAskedMs } from './scenarioBounds.js';

const scenario = (version: number, faults: unknown[], bounds?: object): Scenario =>
  parseScenario({ format: 'durasim.scenario', version, task: { id: 't', operations: [{ kind: 'publish', key: 'a', body: 'x' }] }, faults, ...(bounds ? { bounds } : {}) });
const pause = { kind: 'pause', process: 0, incarnation: 0, step: 3, pauseMs: 30_000 };
const crash = { kind: 'crash', process: 0, incarnation: 0, step: 2, when: 'after', mode: 'keep-all' };

describe('the bounds a run is held to', () => {
  test('the time the faults ask for: pauses, holds, delays, commits, 503 waits (1 s when left out), restarts', () => {
    const s = scenario(3, [pause, crash, { kind: 'takeover', atStep: 4, holdMs: 20_000 }, { kind: 'response', request: 0, fault: 'delay', delayMs: 60_000 }, { kind: 'response', request: 1, fault: 'accept-later', commitDelayMs: 50 }, { kind: 'response', request: 2, fault: 'unavailable' }, { kind: 'response', request: 3, fault: 'unavailable', retryAfterMs: 8_000 }]);
    expect(timeAskedMs(s)).toBe(30_000 + 100 + 20_000 + 60_000 + 50 + 1_000 + 8_000);
  });

  test('from format 3, a bound at its default grows with that time (steps and virtual time) and with the crashes (incarnations)', () => {
    const grown = boundsInForce(scenario(3, [pause, crash]));
    expect(grown).toEqual({ maxSteps: 5_000 + 30_100, maxVirtualTimeMs: 3_600_000 + 30_100, maxIncarnations: 13, grownBy: { maxSteps: 30_100, maxVirtualTimeMs: 30_100, maxIncarnations: 1 } });
    expect(boundsInForce(scenario(3, []))).toEqual({ ...DEFAULT_BOUNDS, grownBy: {} });
  });

  test('steps grow by 100,000 at most (a day-long pause past a key\'s time-to-live); virtual time by all of it', () => {
    const day = boundsInForce(scenario(3, [{ ...pause, pauseMs: 86_401_000 }]));
    expect(day).toMatchObject({ maxSteps: 105_000, maxVirtualTimeMs: 3_600_000 + 86_401_000 });
  });

  test('a bound set to anything but its default is taken as set; formats 1 and 2 keep the defaults as they were', () => {
    expect(boundsInForce(scenario(3, [pause], { maxSteps: 20_000 }))).toMatchObject({ maxSteps: 20_000, maxVirtualTimeMs: 3_630_000, grownBy: { maxVirtualTimeMs: 30_000 } });
    expect(boundsInForce(scenario(2, [pause, crash]))).toEqual({ ...DEFAULT_BOUNDS, grownBy: {} });
  });
});
