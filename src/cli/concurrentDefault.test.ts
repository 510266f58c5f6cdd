/**
 * Concurrency by default (issue 52 item 5): concurrent calls are among the default fault families,
 * unless the config says the journal is only ever called one at a time; check's first line names
 * every family left out and why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { main } from './main.js';
import { parseConfig } from './config.js';

let dir = '';
let out: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-concurrent-'));
  out = [];
});
const run = (...argv: string[]) => main(argv, (line) => out.push(line));
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const common = () => ['--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart'];

describe('concurrent calls by default', () => {
  test("a server's journal with an in-process race is found by the default families, and the first line leaves nothing out", async () => {
    expect(await run('check', '--no-sweep', '--journal', 'claim-after-lease', '--runs', '200', '--seed', '2', ...common())).toBe(1);
    expect(out[0]).toMatch(/^seed 2 · faults crash,disk,io,response,duplicate,user,service-restart,intent,store,failure,concurrent \(each run draws its own mix\) · journal claim-after-lease · /);
    expect(out.join('\n')).toMatch(/single-flight|no-state-skip|write-ahead/);
  });

  test('a config that says the journal is called one at a time leaves them out, and the first line says which and why', async () => {
    const config = join(dir, 'durasim.config.json');
    writeFileSync(config, JSON.stringify({ calls: 'one-at-a-time' }));
    expect(await run('check', '--no-sweep', '--journal', 'claim-after-lease', '--runs', '200', '--seed', '2', '--config', config, ...common())).toBe(0);
    expect(out[0]).toContain(` · faults crash,disk,io,response,duplicate,user,service-restart,intent,store,failure (each run draws its own mix) · left out: concurrent ("calls": "one-at-a-time" in ${config}: a journal called one at a time meets no concurrent call) · journal claim-after-lease`);
  });

  test('--faults names what is drawn: the rest is left out, said so', async () => {
    expect(await run('check', '--no-sweep', '--faults', 'crash,io', '--runs', '5', '--seed', '2', ...common())).toBe(0);
    expect(out[0]).toContain(' · faults crash,io (each run draws its own mix) · left out: disk, response, duplicate, user, service-restart, intent, store, failure, concurrent (--faults) · ');
  });

  test('"calls" is read, refused when it is no way of calling, or when the families it leaves out are named', () => {
    expect(parseConfig('durasim.config.json', '{ "calls": "one-at-a-time" }', '/p')).toEqual({ calls: 'one-at-a-time' });
    expect(() => parseConfig('durasim.config.json', '{ "calls": "serial" }', '/p')).toThrow('Failed to read the config: durasim.config.json says "calls": "serial", which is not how a journal is called. Write "calls": "one-at-a-time"');
    expect(() => parseConfig('durasim.config.json', '{ "calls": "one-at-a-time", "faults": ["crash", "concurrent"] }', '/p')).toThrow('Failed to read the config: durasim.config.json says "calls": "one-at-a-time" and names "concurrent" among its "faults": a journal called one at a time meets no concurrent call. Drop "concurrent" from "faults", or "calls"');
  });
});
