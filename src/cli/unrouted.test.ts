/**
 * A run that reached nothing is never clean in silence (issue 51): a worker posting to a route the
 * service does not have, or to another host, records its operations failed — clean before, exit 1
 * now, the route or host named.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-unrouted-'));
const worker = (name: string, url: string): string => {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { appendFile, open } from 'node:fs/promises';
export default {
  name: '${name}',
  async run(env, task) {
    const record = async (line) => { await appendFile('log.txt', line + '\\n'); const h = await open('log.txt', 'r'); await h.sync(); await h.close(); const d = await open('.', 'r'); await d.sync(); await d.close(); };
    for (const op of task.operations) {
      if (op.kind !== 'publish') continue;
      await record(op.key + ' authorized');
      await record(op.key + ' dispatched');
      const response = await fetch(${url}, { method: 'POST', headers: { 'idempotency-key': op.key }, body: op.body }).catch(() => ({ ok: false }));
      const receipt = response.ok ? (await response.json()).receipt : undefined;
      await record(op.key + ' ' + (receipt ? 'succeeded ' + receipt : 'failed'));
    }
  },
  inspect(disk) {
    const out = {};
    for (const line of (disk.readFile('log.txt') ?? '').split('\\n')) { const [key, state, receipt] = line.split(' '); if (state) (out[key] ??= { kind: 'operation', history: [] }).history.push(state); if (receipt) out[key].receipt = receipt; }
    return out;
  },
};
`);
  return file;
};

async function check(journal: string, ...more: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['check', '--no-sweep', '--no-real-restart', '--journal', journal, ...more, '--operations', 'publish', '--features', 'none', '--runs', '20', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('a run that reached nothing', () => {
  test('a worker posting to a route the service does not have (POST /payouts) is not clean: routed-requests, and its failed operations have no effect', async () => {
    const { code, out } = await check(worker('posts-to-payouts', "task.service.url + '/payouts'"));
    expect(code).toBe(1);
    expect(out).toMatch(/routed-requests at #\d+: expected every request on a route the service has .*; actual (a request|\d+ requests) to POST \/payouts, which no route takes \(answered 404, nothing committed\)/);
    expect(out).toMatch(/fault-free-effects \[post-a\] at #\d+: expected an effect of post-a at the service: the run had no fault, and the journal recorded it failed/);
    // Counted on the first screen (and in summary.json's work), whatever was judged.
    expect(out).toMatch(/^requests that reached nothing: \d+ requests? to no route of the service, 0 requests to another host, in \d+ runs? \(routed-requests\)$/m);
  });

  test('a worker posting to another host is not clean either', async () => {
    const { code, out } = await check(worker('posts-elsewhere', "'https://api.payouts.example/v1/payouts/' + op.key"));
    expect(code).toBe(1);
    expect(out).toMatch(/routed-requests at #\d+: expected every request to the service, at http:\/\/service\.durasim \(the url the task names\); actual (a request|\d+ requests) to https:\/\/api\.payouts\.example, another host/);
  });

  test('the same worker posting to the service\'s own route breaks neither (its crash recovery is another matter)', async () => {
    const { code } = await check(worker('posts-to-operations', "task.service.url + '/operations/' + op.key"), '--invariants', 'routed-requests,fault-free-effects', '--faults', 'response,failure');
    expect(code).toBe(0);
  });
});
