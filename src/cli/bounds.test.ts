/**
 * The bounds from the command line and the config: a run that reaches one says which and how to
 * raise it; --max-steps (replay, check) and the config's "bounds" (check's generated runs) set it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-bounds-'));
// Worker 0 holds a lock through a 30 s pause; the duplicate polls for it every 5 ms: ~12,000 steps. Format 2: bounds as set.
const journal = join(dir, 'pollsALock.mjs');
writeFileSync(journal, `export default { name: 'polls-a-lock', inspect: () => ({}),
  async run(env) {
    const exists = async () => env.fs.readFile('lock', 'utf8').then(() => true, () => false);
    while (await exists()) await env.clock.sleep(5);
    await env.fs.writeFile('lock', String(env.pid));
    await env.fs.appendFile('log', 'worker ' + env.pid + ' had the lock\\n');
    await env.fs.unlink('lock');
  } };
`);
const scenario = join(dir, 'pause.json');
writeFileSync(scenario, JSON.stringify({ format: 'durasim.scenario', version: 2, task: { id: 't', operations: [] }, faults: [{ kind: 'duplicate-delivery', atStep: 2 }, { kind: 'pause', process: 0, incarnation: 0, step: 2, pauseMs: 30_000 }] }));

async function run(...argv: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await main(argv, (line) => out.push(line));
  return { code, out };
}

describe('a bound reached', () => {
  test('replay: exit 3, the bound named, and how to raise it; --max-steps raises it and the same scenario finishes clean', async () => {
    const cut = await run('replay', scenario, '--journal', journal, '--workers', '1');
    expect(cut.code).toBe(3);
    expect(cut.out).toContain('  bound: the run reached its steps bound (5,000); if the journal needs more, raise it: --max-steps 20000, or "bounds": { "maxSteps": 20000 } in durasim.config.json');
    const raised = await run('replay', scenario, '--journal', journal, '--workers', '1', '--max-steps', '20000');
    expect(raised.code).toBe(0);
    expect(raised.out).toContain('verdict: no violation');
  });

  test('check: the config\'s "bounds" hold every generated run; --max-steps overrides it', async () => {
    const config = join(dir, 'tight.config.json');
    writeFileSync(config, JSON.stringify({ bounds: { maxSteps: 40 } }));
    const args = ['check', '--no-sweep', '--no-real-restart', '--config', config, '--runs', '3', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'r1'), '--regressions', join(dir, 'g1')];
    const tight = await run(...args);
    expect(tight.code).toBe(3);
    expect(tight.out.join('\n')).toContain('bound: the run reached its steps bound (40); if the journal needs more, raise it: --max-steps 160, or "bounds": { "maxSteps": 160 } in durasim.config.json');
    const loose = await run(...args.slice(0, -4), '--report-dir', join(dir, 'r2'), '--regressions', join(dir, 'g2'), '--max-steps', '5000');
    expect(loose.code).toBe(0);
  });
});
