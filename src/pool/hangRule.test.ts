import { describe, expect, test } from 'vitest';
import { hangVerdict, WALL_FACTOR } from './hangRule.js';

const look = (over: Partial<Parameters<typeof hangVerdict>[0]>) => hangVerdict({ hangTimeoutMs: 1000, nowMs: 0, lastBeatAtMs: 0, cpuMs: 0, lastBeatCpuMs: 0, ...over });

describe('hangVerdict', () => {
  test('a thread that spent the hang timeout of its own CPU since its heartbeat last moved is blocked, said in CPU time', () => {
    expect(look({ nowMs: 1200, cpuMs: 1000 })).toBe('for 1 s of its CPU time');
    expect(look({ nowMs: 1200, cpuMs: 999 })).toBeUndefined();
  });

  // The case the wall-clock rule got wrong: on a loaded machine, 1 s of wall time passed while the
  // thread ran 0.4 s (a slow load of a journal), and it was stopped as blocked.
  test('a thread the machine leaves waiting for a core is not blocked by wall time alone', () => {
    expect(look({ nowMs: 1000, cpuMs: 400 })).toBeUndefined();
    expect(look({ nowMs: 5000, cpuMs: 900, lastBeatCpuMs: 0 })).toBeUndefined();
  });

  test('a thread that stands still without using CPU is stopped after ten hang timeouts of wall time', () => {
    expect(WALL_FACTOR).toBe(10);
    expect(look({ nowMs: 9999, cpuMs: 5 })).toBeUndefined();
    expect(look({ nowMs: 10_000, cpuMs: 5 })).toBe('for 10 s of wall time');
    expect(look({ hangTimeoutMs: 300, nowMs: 3000, cpuMs: 5 })).toBe('for 3 s of wall time');
  });

  test('where its CPU cannot be read (no /proc), the hang timeout is wall time, as before', () => {
    expect(look({ nowMs: 999, cpuMs: undefined })).toBeUndefined();
    expect(look({ nowMs: 1000, cpuMs: undefined })).toBe('for 1 s of wall time');
    expect(look({ nowMs: 1500, cpuMs: 1400, lastBeatCpuMs: undefined })).toBeUndefined();
    expect(look({ hangTimeoutMs: 1500, nowMs: 1500, cpuMs: undefined, lastBeatCpuMs: undefined })).toBe('for 1.5 s of wall time');
  });
});
