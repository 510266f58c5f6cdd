/**
 * A safety violation outranks liveness in a check's verdict (issue 51): a liveness failure does not
 * end the search, and a safety finding after it leads (exit 1), the liveness one shown beside it;
 * a run the pool stopped because the journal blocked is judged up to where it blocked.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-outranks-'));
const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
/** Log lines, one state each; inspect() reads them back. */
const INSPECT = `inspect(disk) {
    const out = {};
    for (const line of (disk.readFile('log.txt') ?? '').split('\\n')) {
      const [key, state] = line.split(' ');
      if (state) (out[key] ??= { kind: 'operation', history: [] }).history.push(state);
    }
    return out;
  },`;
// Refuses to start after an unclean shutdown (liveness, once a crash lands before its first send);
// never fsyncs the folder after creating its log (write-ahead, without any fault, once it sends).
const refuses = write('refuses.mjs', `export default {
  name: 'refuses-after-crash',
  async run(env, task) {
    const log = await env.fs.readFile('log.txt', 'utf8').catch(() => undefined);
    if (log !== undefined && !log.endsWith('clean\\n')) throw new Error('refusing to start: unclean shutdown');
    const append = async (line) => { await env.fs.appendFile('log.txt', line + '\\n'); const h = await env.fs.open('log.txt', 'r'); await h.sync(); await h.close(); };
    await append('start');
    for (const op of task.operations) {
      if (op.kind !== 'publish') continue;
      await append(op.key + ' authorized');
      await append(op.key + ' dispatched');
      const response = await env.fetch(task.service.url + '/operations/' + op.key, { method: 'POST', body: op.body, headers: { 'idempotency-key': op.key } }).catch(() => ({ status: 0 }));
      await append(op.key + ' ' + (response.status >= 200 && response.status < 300 ? 'succeeded' : 'failed'));
    }
    await append('clean');
  },
  ${INSPECT}
};
`);
// Sends before its intent is durable (write-ahead), then holds its thread for good.
const blocks = write('blocks.mjs', `export default {
  name: 'sends-then-blocks',
  async run(env, task) {
    const op = task.operations.find((o) => o.kind === 'publish');
    await env.fs.appendFile('log.txt', op.key + ' authorized\\n' + op.key + ' dispatched\\n');
    await env.fetch(task.service.url + '/operations/' + op.key, { method: 'POST', body: op.body, headers: { 'idempotency-key': op.key } });
    for (;;) {}
  },
  ${INSPECT}
};
`);

async function check(journal: string, name: string, ...more: string[]): Promise<{ code: number; out: string[]; summary: Record<string, unknown> }> {
  const out: string[] = [];
  const code = await main(['check', '--no-sweep', '--journal', journal, '--operations', 'publish', '--features', 'none', '--workers', '1', '--no-progress', '--report-dir', join(dir, name), '--regressions', join(dir, `${name}-regressions`), ...more], (line) => out.push(line));
  return { code, out, summary: JSON.parse(readFileSync(join(dir, name, 'summary.json'), 'utf8')) as Record<string, unknown> };
}

describe('safety outranks liveness', () => {
  test('a liveness failure first (run 0: a crash before any send) does not end the search: the safety finding after it leads, exit 1, both shown and saved', async () => {
    const { code, out, summary } = await check(refuses, 'first', '--runs', '300', '--seed', '3');
    expect(code).toBe(1);
    expect(summary).toMatchObject({ verdict: 'safety', also: { verdict: 'liveness', run: 0 } });
    expect(out.find((line) => line.startsWith('also found'))).toBe('also found, in an earlier run (run 0): liveness — the safety finding above outranks it');
    const at = out.findIndex((line) => line.startsWith('also found'));
    expect(out[at + 1]).toMatch(/^ {2}convergence at #\d+: expected the run to complete within its bounds; actual bounds-exceeded: worker-0 would start incarnation \d+/);
    expect(out[at + 2]).toMatch(/^ {2}replay: npx durasim replay .+\.json --journal .+refuses\.mjs$/);
    expect(out.some((line) => line.startsWith('  write-ahead [post-'))).toBe(true);
  });

  test('a run stopped because the journal blocked its thread is judged up to where it blocked: its write-ahead violation leads, exit 1', async () => {
    // A journal run as one process per task: no concurrent call (its endless loop would hold the thread for both).
    const { code, out } = await check(blocks, 'blocked', '--runs', '1', '--seed', '1', '--hang-timeout', '1s', '--faults', 'crash,disk,io,response,duplicate,user,service-restart,intent,store,failure');
    expect(code).toBe(1);
    expect(out.some((line) => line.startsWith('  write-ahead [post-'))).toBe(true);
    expect(out.some((line) => line.includes('journal-blocked'))).toBe(true);
  });
});
