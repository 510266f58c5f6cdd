/**
 * The time zone and the locale of a simulated process are the same on every host: UTC and en-US.
 * The same scenario is replayed by the CLI in child processes started with three time zones and
 * another locale, and gives one trace hash; what the journal wrote names UTC and formats as en-US,
 * whether it gave no locale or a list of none (`[]`, `{}`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-tz-'));
const journal = join(dir, 'clockText.mjs');
writeFileSync(journal, `import { writeFile } from 'node:fs/promises';
export default {
  name: 'clock-text',
  async run() {
    const d = new Date();
    const texts = [d.toString(), d.toTimeString(), d.toLocaleString(), d.toLocaleDateString(), new Intl.DateTimeFormat().format(d), String(d.getHours()), (1234.5).toLocaleString(), ['b', 'a'].sort((x, y) => x.localeCompare(y)).join(''), Intl.DateTimeFormat().resolvedOptions().timeZone, new Intl.NumberFormat().resolvedOptions().locale, Date(), d.toLocaleString([]), (1234.5).toLocaleString([]), new Intl.DateTimeFormat([]).resolvedOptions().locale, new Intl.NumberFormat({}).resolvedOptions().locale, ['b', 'a'].sort((x, y) => x.localeCompare(y, [])).join('')];
    await writeFile('clock.txt', texts.join(' | '));
  },
  inspect(disk) {
    const text = disk.readFile('clock.txt');
    return text ? { clock: { kind: 'operation', history: ['authorized', 'dispatched', 'failed'], digest: text } } : {};
  },
};
`);
const scenario = join(dir, 'scenario.json');
writeFileSync(scenario, JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] } }));

function replayUnder(tz: string, lang: string): { hash: string; out: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/durasim.mjs'), 'replay', scenario, '--journal', journal, '--workers', '1'], { encoding: 'utf8', env: { ...process.env, TZ: tz, LANG: lang, LC_ALL: lang } });
  const hash = /· trace ([0-9a-f]+)/.exec(run.stdout)?.[1];
  if (hash === undefined) throw new Error(`replay printed no trace hash (exit ${run.status}): ${run.stdout}${run.stderr}`);
  return { hash, out: run.stdout };
}

describe('the simulated time zone and locale', () => {
  test('three time zones and another locale give one trace hash; the journal sees UTC and en-US', () => {
    const runs = [replayUnder('UTC', 'C.UTF-8'), replayUnder('Asia/Kolkata', 'de_DE.UTF-8'), replayUnder('America/New_York', 'tr_TR.UTF-8')];
    expect(new Set(runs.map((r) => r.hash)).size).toBe(1);
    expect(runs[1]?.out).toContain('clock.txt "Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time) | 00:00:00 GMT+0000 (Coordinated Universal Time) | 1/1/');
  });

  test('in this process too, whatever its zone: every text the journal made', async () => {
    const { simulate } = await import('../simulate.js');
    const module = (await import(journal)) as { default: Parameters<typeof simulate>[0] };
    const result = await simulate(module.default, { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] } });
    expect((result.final.visible.clock as { digest?: string }).digest).toBe('Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time) | 00:00:00 GMT+0000 (Coordinated Universal Time) | 1/1/2026, 12:00:00 AM | 1/1/2026 | 1/1/2026 | 0 | 1,234.5 | ab | UTC | en-US | Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time) | 1/1/2026, 12:00:00 AM | 1,234.5 | en-US | en-US | ab');
  });
});
