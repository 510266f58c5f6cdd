/**
 * A worker's own state names on the command line (issue 54, item 6): a journal module whose
 * adapter maps its words (`states`) is checked in its words — its findings name them, the model's
 * in brackets once; a word its inspect() returns that neither its mapping nor the model knows is
 * refused (exit 2), and so is a mapping onto a state the model does not have, word for word.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-own-names-'));
const MODEL_LIST = 'operation: authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled; file: read, conflict, applied';

/** A payments worker in its own words: after an answer it cannot read it waits (`wait`) and sends again, without asking first. */
const worker = (name: string, states: string, wait = 'retry_wait'): string => {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { appendFile, open, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
export default {
  name: '${name}',
  states: ${states},
  async run(env, task) {
    const record = async (line) => { await appendFile('log.txt', line + '\\n'); const h = await open('log.txt', 'r'); await h.sync(); await h.close(); const d = await open('.', 'r'); await d.sync(); await d.close(); };
    const lines = (await readFile('log.txt', 'utf8').catch(() => '')).split('\\n').filter(Boolean).map((l) => l.split(' '));
    for (const op of task.operations) {
      if (op.kind !== 'publish') continue;
      const mine = lines.filter(([key]) => key === op.key).map(([, state]) => state);
      if (mine.includes('paid') || mine.includes('gave_up')) continue;
      if (mine.length === 0) await record(op.key + ' queued');
      for (let attempt = 0; attempt < 3; attempt++) {
        await record(op.key + ' sending');
        const response = await fetch(task.service.url + '/operations/' + op.key, { method: 'POST', headers: { 'idempotency-key': op.key }, body: op.body, signal: AbortSignal.timeout(1000) }).catch(() => undefined);
        const body = response && response.status === 201 ? await response.json().catch(() => null) : null;
        if (body && body.receipt) { await record(op.key + ' paid ' + body.receipt); break; }
        if (response && response.status === 400) { await record(op.key + ' gave_up'); break; }
        await record(op.key + ' timeout');
        await record(op.key + ' ${wait}');
        await sleep(50);
      }
    }
  },
  inspect(disk) {
    const out = {};
    for (const line of (disk.readFile('log.txt') ?? '').split('\\n')) {
      const [key, state, receipt] = line.split(' ');
      if (!state) continue;
      (out[key] ??= { kind: 'operation', history: [] }).history.push(state);
      if (receipt) out[key].receipt = receipt;
    }
    return out;
  },
};
`);
  return file;
};

const STATES = "{ queued: 'authorized', sending: 'dispatched', timeout: 'outcome_unknown', retry_wait: { refines: 'outcome_unknown' }, paid: 'succeeded', gave_up: 'failed' }";

async function check(journal: string, ...more: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['check', '--no-sweep', '--journal', journal, '--operations', 'publish', '--features', 'none', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), ...more], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('a journal in its own words, checked', () => {
  test('its finding names its words, the model\'s in brackets once', async () => {
    const { code, out } = await check(worker('pays-in-own-words', STATES), '--faults', 'response', '--runs', '100', '--safety-only');
    expect(code).toBe(1);
    expect(out).toMatch(/no-state-skip \[post-[a-z]\] at #\d+: expected a transition the model allows from timeout\/retry_wait \[outcome_unknown\] \(to reconciling; docs\/invariants\.md draws the model\); actual timeout\/retry_wait → sending \[dispatched\]/);
  });

  test('a word its inspect() returns that neither its states nor the model know is refused (exit 2), word for word', async () => {
    const file = worker('says-retrying', STATES, 'retrying');
    const { code, out } = await check(file, '--faults', 'response', '--runs', '1', '--seed', '7');
    expect(code).toBe(2);
    const replay = `npx durasim replay ${join(dir, 'report', 'counterexample.json')} --journal ${file}`;
    expect(out).toContain(`Failed to read the journal's records: inspect() answered, in run 0 of seed 7: the record of "post-c" has the state "retrying", which is neither one of the journal's states (queued, sending, timeout, retry_wait, paid, gave_up: its adapter's states) nor an operation state of the model (authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled). Return per key { kind: 'operation' | 'file', a state or history of the states docs/invariants.md lists, a file's path relative to the work folder } (docs/adapters.md); ${replay} shows the run.`);
  });

  test('a mapping onto a state the model does not have is refused as the journal loads (exit 2), word for word', async () => {
    const file = worker('maps-a-typo', "{ queued: 'authorized', sending: 'dispached' }");
    const lines: string[] = [];
    const stderr = process.stderr.write;
    process.stderr.write = ((line: string) => (lines.push(String(line)), true)) as typeof process.stderr.write;
    try {
      expect(await main(['check', '--no-sweep', '--journal', file, '--runs', '1', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')], () => {})).toBe(2);
    } finally {
      process.stderr.write = stderr;
    }
    expect(lines.join('')).toContain(`Failed to load the journal: the states of ${file} map "sending" to "dispached", which is not a state of the model (${MODEL_LIST}). Map each of your state names to one of the model's states, or declare a state the model lacks a sub-state of the one it refines, e.g. retry_wait: { refines: 'outcome_unknown' } (docs/adapters.md, "Your own state names").`);
  });

  test('durasim.config.json says where the mapping goes instead', async () => {
    const config = join(dir, 'durasim.config.json');
    writeFileSync(config, JSON.stringify({ states: { sending: 'dispatched' } }));
    const lines: string[] = [];
    const stderr = process.stderr.write;
    process.stderr.write = ((line: string) => (lines.push(String(line)), true)) as typeof process.stderr.write;
    try {
      expect(await main(['check', '--no-sweep', '--config', config, '--runs', '1'], () => {})).toBe(2);
    } finally {
      process.stderr.write = stderr;
    }
    expect(lines.join('')).toContain(`Failed to read the config: ${config} has a key "states": a journal's own state names are mapped on its adapter, beside the inspect() that returns them, so that every command that loads the journal reads its records alike. Move the mapping to the adapter: export const journal = { name, run, inspect, states: { … } } (docs/adapters.md, "Your own state names").`);
  });
});
