/**
 * The Node lines durasim runs on (nodeSupport.mjs): 20 from 20.19, 22 from 22.12, and 24; an odd
 * line or an older release refused at start with exit 2 and nothing written; a newer even line
 * runs after a warning. The command is run as a child process under a Node that says it is another
 * (process.versions.node replaced before anything loads).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CODE_ROOT } from './graph.mjs';
import { nodeSupport, SUPPORTED_LINES } from './nodeSupport.mjs';

const FIX = 'Run durasim with Node 24 or 22 (its LTS lines; 20.19 or later on 20 still works).';
const WORDS = 'Node 20 (20.19 or later), 22 (22.12 or later) and 24';

/** The command under a Node that reports `version`, in an empty folder; what it printed, its exit code and what it left there. */
function durasimAs(version: string, argv: string[]): { code: number | null; stdout: string; stderr: string; left: string[] } {
  const cwd = mkdtempSync(join(tmpdir(), 'durasim-node-support-'));
  const fake = `data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } })`;
  const run = spawnSync(process.execPath, ['--import', fake, join(CODE_ROOT, 'bin/durasim.mjs'), ...argv], { cwd, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, left: readdirSync(cwd) };
}

describe('the Node lines durasim runs on', () => {
  test.each([
    ['20.19.0', 'supported'],
    ['20.20.2', 'supported'],
    ['v22.12.0', 'supported'],
    ['22.23.5', 'supported'],
    ['24.0.0', 'supported'],
    ['24.22.3', 'supported'],
    ['20.18.3', 'refused'],
    ['22.11.0', 'refused'],
    ['18.20.8', 'refused'],
    ['21.7.3', 'refused'],
    ['23.11.1', 'refused'],
    ['25.2.0', 'refused'],
    ['26.1.0', 'untested'],
  ])('Node %s: %s', (version, verdict) => {
    expect(nodeSupport(version).verdict).toBe(verdict);
  });

  test('every supported line is an even (LTS) line, each from a release of its own line', () => {
    expect(SUPPORTED_LINES.map((l) => l.line)).toEqual([20, 22, 24]);
    for (const l of SUPPORTED_LINES) expect(l.from.startsWith(`${l.line}.`)).toBe(true);
  });

  test('each refusal says why, in the house style', () => {
    expect(nodeSupport('23.11.1')).toEqual({ verdict: 'refused', reason: `Node 23.11.1 is an odd-numbered line, a short-lived release never supported long-term, and durasim is tested on the LTS lines only (${WORDS})`, fix: FIX.slice(0, -1) });
    expect(nodeSupport('20.18.3')).toEqual({ verdict: 'refused', reason: `Node 20.18.3 is older than 20.19.0, the first release of Node 20 durasim runs on (it supports ${WORDS})`, fix: FIX.slice(0, -1) });
    expect(nodeSupport('18.20.8')).toEqual({ verdict: 'refused', reason: `Node 18.20.8 is older than every line durasim runs on (${WORDS})`, fix: FIX.slice(0, -1) });
  });

  test('the command on an odd line: refused at start, exit 2, nothing written', () => {
    const run = durasimAs('23.11.1', ['check', '--no-sweep', '--runs', '5']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`Failed to start durasim: Node 23.11.1 is an odd-numbered line, a short-lived release never supported long-term, and durasim is tested on the LTS lines only (${WORDS}). ${FIX}\n`);
    expect(run.stdout).toBe('');
    expect(run.left).toEqual([]);
  });

  test('the command on a release older than its line\'s minimum: refused; check --json says so as its one JSON document', () => {
    const run = durasimAs('20.18.3', ['check', '--no-sweep', '--runs', '5', '--json']);
    expect(run.code).toBe(2);
    const message = `Failed to start durasim: Node 20.18.3 is older than 20.19.0, the first release of Node 20 durasim runs on (it supports ${WORDS}). ${FIX}`;
    expect(run.stderr).toBe(`${message}\n`);
    expect(JSON.parse(run.stdout)).toEqual({ command: 'check', verdict: 'usage', exitCode: 2, message });
    expect(run.left).toEqual([]);
  });

  test('the command on a newer even line runs, after a warning line; on a supported one, without', () => {
    const newer = durasimAs('26.1.0', ['--version']);
    expect(newer.code).toBe(0);
    expect(newer.stderr).toBe(`warning: Node 26.1.0 is newer than the lines durasim is tested on (${WORDS}): it should work, but nobody has shown that a saved scenario replays the same trace on it\n`);
    expect(newer.stdout).toMatch(/^durasim \d+\.\d+\.\d+\n$/);
    const supported = durasimAs('24.22.3', ['--version']);
    expect(supported).toMatchObject({ code: 0, stderr: '', stdout: newer.stdout });
  });
});
