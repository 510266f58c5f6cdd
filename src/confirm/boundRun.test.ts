import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHILD_HANG_GUARD_MS } from '../../properties/budgets.js';
import { armedListeners, boundRun, type RunEnd } from './boundRun.js';

const HOUR = 3_600_000;

/** A run's end that records what was done to it. */
function recorded(): RunEnd & { said: string[] } {
  const said: string[] = [];
  return { said, killAll: () => said.push('killed'), cutShort: (detail) => said.push(`cut short: ${detail}`), finish: () => said.push('finished') };
}

describe('boundRun', () => {
  const disarms: (() => void)[] = [];
  afterEach(() => {
    for (const disarm of disarms.splice(0)) disarm();
  });

  it('twenty runs armed at once hold one listener per signal, and none once all are disarmed', () => {
    const before = process.listenerCount('SIGINT');
    for (let i = 0; i < 20; i++) disarms.push(boundRun(join(tmpdir(), `never-${i}`), HOUR, recorded()));
    expect(armedListeners()).toBe(1);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    expect(process.listenerCount('SIGTERM')).toBeGreaterThanOrEqual(1);
    for (const disarm of disarms.splice(0, 19)) disarm();
    expect(armedListeners()).toBe(1);
    disarms.splice(0).forEach((disarm) => disarm());
    expect(armedListeners()).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('a signal someone else listens for kills every armed run and ends each cut short, then listens no more', () => {
    const ends = [recorded(), recorded(), recorded()];
    for (const end of ends) disarms.push(boundRun(join(tmpdir(), 'never'), HOUR, end));
    const theCaller = (): void => {};
    process.on('SIGINT', theCaller);
    try {
      process.emit('SIGINT', 'SIGINT');
    } finally {
      process.off('SIGINT', theCaller);
    }
    for (const end of ends) expect(end.said).toEqual(['killed', 'cut short: the real run was interrupted (SIGINT)', 'finished']);
    expect(armedListeners()).toBe(0);
  });

  it('the wall-clock limit cuts the run short and kills its workers', async () => {
    const end = recorded();
    disarms.push(boundRun(join(tmpdir(), 'never'), 20, end));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(end.said).toEqual(['cut short: the real run took over 20 ms', 'killed', 'finished']);
  });

  it('a signal no one else listens for removes every armed run folder and ends the process by that signal', () => {
    const parent = mkdtempSync(join(tmpdir(), 'durasim-boundrun-'));
    try {
      const roots = [join(parent, 'a'), join(parent, 'b')];
      const script = [
        `import { mkdirSync } from 'node:fs';`,
        `import { boundRun } from ${JSON.stringify(new URL('./boundRun.ts', import.meta.url).href)};`,
        `for (const root of ${JSON.stringify(roots)}) { mkdirSync(root); boundRun(root, 3_600_000, { killAll() {}, cutShort() {}, finish() {} }); }`,
        `process.kill(process.pid, 'SIGTERM');`,
        `setTimeout(() => {}, 60_000);`,
      ].join('\n');
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: CHILD_HANG_GUARD_MS, killSignal: 'SIGKILL' }); // a hang ends by SIGKILL, never read as the signal sent
      expect(child.signal, child.stderr).toBe('SIGTERM');
      for (const root of roots) expect(existsSync(root)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
