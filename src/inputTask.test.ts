/**
 * A task from the journal's own data: the operations come from the input file's records, the file
 * is in every run's work folder, and the judge holds the journal to every record of it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DurasimError } from '../model/contract/failure.js';
import { main } from './cli/main.js';
import { inputTask, parseInputSpec } from './inputTask.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-input-'));
const PAYOUTS = { payouts: [{ id: 'po_1001', amount: 2500, currency: 'eur' }, { id: 'po_1002', amount: 990, currency: 'eur' }] };
writeFileSync(join(dir, 'payouts.json'), `${JSON.stringify(PAYOUTS)}\n`);
const refuse = (reason: string, fix: string): DurasimError => new DurasimError('read the config', `durasim.config.json ${reason}`, fix);
const spec = { file: 'payouts.json', items: '/payouts', key: '/id', body: { amount: '{{item:/amount}}', currency: '{{item:/currency}}', metadata: { id: '{{item:/id}}' } } };

describe('a task from the journal\'s own input', () => {
  test('one publish per record, its key and its body from the record; the file in the work folder', () => {
    const { scenario } = inputTask(parseInputSpec(spec, refuse), dir);
    expect(scenario.task.operations).toEqual([
      { kind: 'publish', key: 'po_1001', body: '{"amount":2500,"currency":"eur","metadata":{"id":"po_1001"}}' },
      { kind: 'publish', key: 'po_1002', body: '{"amount":990,"currency":"eur","metadata":{"id":"po_1002"}}' },
    ]);
    expect(JSON.parse(scenario.files['payouts.json'] as string)).toEqual(PAYOUTS);
  });

  test('refuses what it cannot derive, naming the record', () => {
    const message = (value: unknown): string => {
      try {
        inputTask(parseInputSpec(value, refuse), dir);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(message({ ...spec, key: 'id' })).toBe('Failed to read the config: durasim.config.json says "input.key": "id", which is not a JSON pointer ("" or starting with "/"). Write e.g. "input": { "file": "payouts.json", "items": "/payouts", "key": "/id", "body": { "amount": "{{item:/amount}}" } } (docs/service-contract.md).');
    expect(message({ ...spec, key: '/currency' })).toBe('Failed to read the task\'s input: payouts.json has two records with the key "eur". Give every record its own id.');
    expect(message({ ...spec, key: '/nested' })).toBe('Failed to read the task\'s input: payouts.json has a record (0) whose key at "/nested" is undefined, not a key of letters, digits, ".", "_" and "-". Point "input.key" at each record\'s id.');
    expect(message({ ...spec, items: '/missing' })).toBe('Failed to read the task\'s input: payouts.json holds no list of records at "/missing". Point "input.items" at the array of records ("" when the file is the array).');
  });

  test('check holds a worker that reads its own input to every record: one that forgets the last is found', async () => {
    const journal = join(dir, 'forgets-the-last.mjs');
    writeFileSync(journal, `import { readFile, appendFile, open } from 'node:fs/promises';
export default {
  name: 'forgets-the-last',
  async run(env, task) {
    const { payouts } = JSON.parse(await readFile('payouts.json', 'utf8'));
    const record = async (line) => { await appendFile('log.txt', line + '\\n'); const h = await open('log.txt', 'r'); await h.sync(); await h.close(); const d = await open('.', 'r'); await d.sync(); await d.close(); };
    for (const p of payouts.slice(0, -1)) {
      await record(p.id + ' authorized');
      await record(p.id + ' dispatched');
      const response = await fetch(task.service.url + '/operations/' + p.id, { method: 'POST', body: JSON.stringify({ amount: p.amount, currency: p.currency, metadata: { id: p.id } }) });
      await record(p.id + ' succeeded ' + (await response.json()).receipt);
    }
  },
  inspect(disk) {
    const out = {};
    for (const line of (disk.readFile('log.txt') ?? '').split('\\n')) { const [key, state, receipt] = line.split(' '); if (state) (out[key] ??= { kind: 'operation', history: [] }).history.push(state); if (receipt) out[key].receipt = receipt; }
    return out;
  },
};
`);
    writeFileSync(join(dir, 'durasim.config.json'), JSON.stringify({ journal: './forgets-the-last.mjs', operations: ['publish'], features: [], faults: ['response'], input: spec }));
    const out: string[] = [];
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const code = await main(['check', '--no-sweep', '--runs', '5', '--seed', '1', '--workers', '1', '--no-progress'], (line) => out.push(line));
      expect(code).toBe(3);
    } finally {
      process.chdir(cwd);
    }
    expect(out.join('\n')).toMatch(/convergence \[po_1002\] at #\d+: expected a terminal state at the end; actual nothing recorded for it/);
    expect(out[0]).toContain(' · task ./payouts.json');
  });
});
