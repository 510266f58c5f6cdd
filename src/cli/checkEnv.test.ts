/**
 * check --env NAME=VALUE: the variable is in the journal's process.env in every generated scenario,
 * saved with the counterexample (a replay needs no flag); a malformed one is refused (exit 2).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-env-'));
// A defect that shows only with the variable set: FAST_MODE=1 skips the durable intent.
const journal = join(dir, 'fastMode.mjs');
writeFileSync(journal, `import * as fsp from 'node:fs/promises';
import { createHash } from 'node:crypto';
export default {
  name: 'fast-mode',
  async run(env, task) {
    for (const op of task.operations) if (op.kind === 'publish') {
      if (process.env.FAST_MODE !== '1') {
        const file = await fsp.open(op.key + '.json', 'w');
        await file.writeFile(JSON.stringify({ key: op.key, history: ['authorized', 'dispatched'], digest: createHash('sha256').update(op.body).digest('hex') }));
        await file.sync();
        await file.close();
        const folder = await fsp.open('.', 'r');
        await folder.sync();
        await folder.close();
      }
      await fetch(task.service.url + '/operations/' + op.key, { method: 'POST', body: op.body, headers: { 'idempotency-key': op.key } });
    }
  },
  inspect(disk) {
    const out = {};
    for (const name of disk.readdir('.')) if (name.endsWith('.json')) { const r = JSON.parse(disk.readFile(name)); out[r.key] = { kind: 'operation', history: r.history, digest: r.digest }; }
    return out;
  },
};
`);

// A module that reads its environment as it loads, as a service reads its configuration: without the variable it cannot load.
const needsEnv = join(dir, 'needsEnv.mjs');
writeFileSync(needsEnv, `if (process.env.JOURNAL_TOKEN === undefined) throw new Error('JOURNAL_TOKEN is not set');
const token = process.env.JOURNAL_TOKEN;
export default {
  name: 'needs-env',
  async run(env, task) {
    if (process.env.JOURNAL_TOKEN !== token) throw new Error('the token changed');
  },
  inspect() {
    return {};
  },
};
`);

async function run(...argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  try {
    const code = await main(argv, (line) => out.push(line));
    return { code, out: out.join('\n') };
  } finally {
    stderr.mockRestore();
  }
}

describe('check --env', () => {
  test('the variable reaches the journal in every scenario and is saved with the counterexample; replay needs no flag', async () => {
    const common = ['--journal', journal, '--runs', '20', '--seed', '1', '--faults', 'response', '--workers', '1', '--no-progress', '--regressions', join(dir, 'regressions')];
    const without = await run('check', '--no-sweep', '--no-real-restart', ...common, '--report-dir', join(dir, 'clean'), '--invariants', 'write-ahead');
    expect(without.out).toMatch(/: clean$/m);
    expect(without.code).toBe(0);
    const withEnv = await run('check', '--no-sweep', ...common, '--report-dir', join(dir, 'report'), '--invariants', 'write-ahead', '--env', 'FAST_MODE=1', '--env', 'EMPTY=');
    expect(withEnv.out).toContain(' · env FAST_MODE, EMPTY · ');
    expect(withEnv.out).toMatch(/write-ahead \[post-a\]/);
    expect(withEnv.code).toBe(1);
    const saved = JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { environment?: Record<string, string> };
    expect(saved.environment).toEqual({ FAST_MODE: '1', EMPTY: '' });
    const replay = await run('replay', join(dir, 'report', 'counterexample.json'), '--journal', journal, '--workers', '1');
    expect(replay.out).toMatch(/write-ahead \[post-a\]/);
    expect(replay.code).toBe(1);
  });

  test("the variables are in process.env while the journal's modules load: --env, the config's env, a replayed scenario's, explore's", async () => {
    const common = ['--journal', needsEnv, '--runs', '5', '--seed', '1', '--faults', 'crash', '--invariants', 'write-ahead', '--workers', '1', '--no-progress', '--regressions', join(dir, 'regressions')];
    const without = await run('check', '--no-sweep', ...common, '--report-dir', join(dir, 'unset'));
    expect(without.out).toContain('JOURNAL_TOKEN is not set');
    expect(without.code).toBe(2);
    const flagged = await run('check', '--no-sweep', ...common, '--report-dir', join(dir, 'flagged'), '--env', 'JOURNAL_TOKEN=t1');
    expect(flagged.out).toMatch(/: clean$/m);
    expect(flagged.code).toBe(0);
    const config = join(dir, 'env.config.json');
    writeFileSync(config, JSON.stringify({ env: { JOURNAL_TOKEN: 't2' } }));
    const configured = await run('check', '--no-sweep', ...common, '--report-dir', join(dir, 'configured'), '--config', config);
    expect(configured.out).toMatch(/: clean$/m);
    expect(configured.code).toBe(0);
    // --task: the user's task file's own environment, when no --env replaces it.
    const task = join(dir, 'task-with-env.json');
    writeFileSync(task, JSON.stringify({ format: 'durasim.scenario', version: 2, task: { id: 't', operations: [{ kind: 'publish', key: 'post-a', body: 'a' }] }, environment: { JOURNAL_TOKEN: 't4' } }));
    const tasked = await run('check', '--no-sweep', ...common, '--report-dir', join(dir, 'tasked'), '--task', task);
    expect(tasked.out).toMatch(/: clean$/m);
    expect(tasked.code).toBe(0);
    const scenario = join(dir, 'with-env.json');
    writeFileSync(scenario, JSON.stringify({ format: 'durasim.scenario', version: 2, task: { id: 't', operations: [] }, environment: { JOURNAL_TOKEN: 't3' } }));
    const replayed = await run('replay', scenario, '--journal', needsEnv, '--workers', '1');
    expect(replayed.out).toContain('verdict: no violation');
    expect(replayed.code).toBe(0);
    const explored = await run('explore', '--journal', needsEnv, '--config', config, '--faults', 'crash', '--max-runs', '5', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'explored'), '--regressions', join(dir, 'regressions'));
    expect(explored.out).not.toContain('JOURNAL_TOKEN is not set');
    expect(explored.out).toMatch(/^explore · journal needs-env /m);
  });

  test('a malformed variable is refused before anything runs (exit 2)', async () => {
    for (const bad of ['NOEQUALS', '1ST=x', 'A-B=x']) {
      const { code, out } = await run('check', '--no-sweep', '--journal', journal, '--env', bad);
      expect(code).toBe(2);
      expect(out).toContain(`Failed to read the command line: --env must be NAME=VALUE with a name of letters, digits and _ (not starting with a digit), found ${JSON.stringify(bad)}. Pass e.g. --env LOCK_TTL_MS=5000.`);
    }
    const twice = await run('check', '--no-sweep', '--journal', journal, '--env', 'A=1', '--env', 'A=2');
    expect(twice.out).toContain('Failed to read the command line: --env names A twice, with two values. Pass --env A=<value> once.');
    expect(twice.code).toBe(2);
  });

  test('variables past the scenario\'s limits are refused before anything runs (exit 2), where they came back as durasim\'s own failure (exit 5)', async () => {
    const long = await run('check', '--no-sweep', '--journal', journal, '--runs', '1', '--env', `A=${'x'.repeat(300_000)}`);
    expect(long.out).toContain('Failed to read the command line: --env A=… has a value 300000 characters long, over the limit of 262144. Pass a shorter value (a path to a file holding it, say).');
    expect(long.code).toBe(2);
    const many = await run('check', '--no-sweep', '--journal', journal, '--runs', '1', ...Array.from({ length: 1001 }, (_, i) => ['--env', `V${i}=1`]).flat());
    expect(many.out).toContain('Failed to read the command line: --env gives 1001 variables, over the limit of 1000. Every scenario of the run carries the environment: keep it to what the journal reads.');
    expect(many.code).toBe(2);
  });
});
