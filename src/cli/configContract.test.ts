/**
 * A scenario that names no service contract, replayed or confirmed where the config names the worker's API, runs
 * against the config's contract (configContract.ts); one that names its own keeps it. Without this, replaying
 * examples/contracts/payments' own task read a correct worker as breaking routed-requests (exit 1).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { presetContract } from '../../simulator/contract/presets.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { withConfigContract } from './configContract.js';
import { main } from './main.js';

const PAYMENTS = resolve(import.meta.dirname, '../../examples/contracts/payments');
const TASK = JSON.parse(readFileSync(join(PAYMENTS, 'task.json'), 'utf8')) as Record<string, unknown>;

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe("a scenario with no contract of its own takes the config's", () => {
  const contract = { ...presetContract('payments')!, url: 'https://api.payouts.example' };

  test('named none: the config\'s, with the line that says so; named one: its own, whatever the config says; no config: as written', () => {
    const bare = parseScenario(TASK);
    const taken = withConfigContract(bare, contract, 'durasim.config.json');
    expect(taken.scenario.service.contract).toBe(contract);
    expect(taken.line).toBe('service https://api.payouts.example (the contract of durasim.config.json, from the payments preset: the scenario names none)');
    const own = { ...bare, service: { ...bare.service, contract: { ...contract, url: 'https://other.example' } } };
    expect(withConfigContract(own, contract, 'durasim.config.json')).toEqual({ scenario: own });
    expect(withConfigContract(bare, undefined, undefined)).toEqual({ scenario: bare });
  });

  test('replay of the payments worker\'s own task with its config is clean (exit 0), and saves the contract with the report; with no config it reaches durasim\'s own routes (exit 1, routed-requests)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-config-contract-'));
    const task = join(dir, 'task.json');
    writeFileSync(task, JSON.stringify(TASK));
    const config = join(PAYMENTS, 'durasim.config.json');
    const spoken = await run('replay', task, '--config', config, '--report-dir', join(dir, 'report'));
    expect(spoken.out).toContain(`service https://api.payouts.example (the contract of ${config}, from the payments preset: the scenario names none)`);
    expect(spoken.out).toMatch(/^verdict: no violation$/m);
    expect(spoken.code).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { service: { contract?: { url: string } } }).service.contract?.url).toBe('https://api.payouts.example');
    const bare = await run('replay', task, '--journal', join(PAYMENTS, 'journal.ts'));
    expect(bare.out).toMatch(/^ {2}routed-requests /m);
    expect(bare.code).toBe(1);
  });
});
