/**
 * A stored regression of a fault family the run does not draw (the config's "faults", or --faults)
 * is skipped, and said so: on screen with its file and families, in summary.json — not replayed
 * to fail again.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir = '';
let out: string[] = [];
let stdout: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-skipped-'));
  out = [];
  stdout = [];
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const outputs = () => ['--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart'];
/** torn-tail-fatal's committed regression: a torn-tail machine crash (the disk family), which the mutant fails. */
function storeTornTail(): string {
  const file = join(dir, 'regressions', 'torn-tail-fatal', '5c7d6fe8baad79b2.json');
  mkdirSync(join(dir, 'regressions', 'torn-tail-fatal'), { recursive: true });
  copyFileSync(join(ROOT, 'reports/regressions/torn-tail-fatal/5c7d6fe8baad79b2.json'), file);
  return file;
}

describe('stored regressions of families the run does not draw', () => {
  test('--faults without disk: the torn-tail regression is skipped and listed, not replayed to fail again (exit 3 before: convergence)', async () => {
    const file = storeTornTail();
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--faults', 'crash,response', '--runs', '10', '--seed', '1', ...outputs())).toBe(0);
    expect(out).toContain('1 stored regression of fault families this run does not draw (faults crash,response) skipped:');
    expect(out).toContain(`  skipped: ${file} (disk)`);
    expect(out.join('\n')).not.toContain('replayed first');
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { regressionsSkipped?: unknown };
    expect(summary.regressionsSkipped).toEqual([{ file, reason: 'faults', outside: ['disk'] }]);
    expect(readFileSync(join(dir, 'report', 'report.md'), 'utf8')).toContain('- stored regressions not replayed: 1 (0 outside the task shape, 1 of fault families this run does not draw; listed in summary.json)');
  });

  test("the config's faults say it as --faults does; with disk drawn the regression is replayed and fails", async () => {
    const file = storeTornTail();
    const config = join(dir, 'durasim.config.json');
    writeFileSync(config, JSON.stringify({ faults: ['crash', 'response'] }));
    const json = await main(['check', '--no-sweep', '--journal', 'torn-tail-fatal', '--config', config, '--runs', '10', '--seed', '1', '--json', ...outputs()], (line) => stdout.push(line));
    expect(json).toBe(0);
    expect((JSON.parse(stdout.join('\n')) as { regressionsSkipped?: unknown }).regressionsSkipped).toEqual([{ file, reason: 'faults', outside: ['disk'] }]);
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--faults', 'crash,disk', '--runs', '10', '--seed', '1', ...outputs())).toBe(3);
    expect(out).toContain(`stored regression ${file} fails again`);
  });

  test('outside the task shape, a regression is listed in summary.json too, with what the shape leaves out', async () => {
    const file = storeTornTail();
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--operations', 'lookup', '--faults', 'crash,response', '--runs', '5', '--seed', '1', ...outputs())).toBe(0);
    expect(out).toContain('1 stored regression outside the task shape (operations lookup) not replayed');
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { regressionsSkipped?: unknown };
    expect(summary.regressionsSkipped).toEqual([{ file, reason: 'shape', outside: ['operation publish'] }]);
  });
});
