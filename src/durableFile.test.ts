import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkOutputFolder } from './cli/preflight.js';
import { makeDirDurably, removeDurably, sweepLeftovers, writeFileDurably } from './durableFile.js';
import { folderName } from './regressions.js';
import { canaryOf } from '../model/contract/secret.js';

describe("durasim's own files are written as a correct journal writes", () => {
  test('a write replaces the whole file and leaves no temporary file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    const file = join(dir, 'summary.json');
    writeFileDurably(file, 'old');
    writeFileDurably(file, 'new and longer');
    expect(readFileSync(file, 'utf8')).toBe('new and longer');
    expect(readdirSync(dir)).toEqual(['summary.json']);
  });

  test('an access-token canary in what durasim writes is masked: it persists no secret either', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    const file = join(dir, 'report.md');
    writeFileDurably(file, `evidence: the file held "token=${canaryOf(5)}"\n`);
    expect(readFileSync(file, 'utf8')).toBe('evidence: the file held "token=«secret»"\n');
  });

  test('a write that fails leaves the old file whole and no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    const file = join(dir, 'report');
    makeDirDurably(file); // a folder where the file should go: the rename fails
    expect(() => writeFileDurably(file, 'text')).toThrow();
    expect(readdirSync(dir)).toEqual(['report']);
  });

  test('folders are made level by level', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    makeDirDurably(join(dir, 'a', 'b', 'c'));
    expect(existsSync(join(dir, 'a', 'b', 'c'))).toBe(true);
    writeFileSync(join(dir, 'keep.tmp'), '');
    removeDurably(join(dir, 'keep.tmp'));
    expect(readdirSync(dir)).toEqual(['a']);
  });
});

/** A pid no process has now: a child's, once it has exited. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
};

describe('what a killed durasim leaves is swept by the next one', () => {
  test("a dead writer's temp files and probes go; a running writer's, this process's own and other files stay", () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    const dead = deadPid();
    const names = [`.summary.json.durasim-${dead}-0.tmp`, `.durasim-probe-${dead}`, `.summary.json.durasim-${process.ppid}-3.tmp`, `.durasim-probe-${process.ppid}`, `.x.json.durasim-${process.pid}-9.tmp`, 'keep.tmp', '.durasim-probe-x'];
    for (const name of names) writeFileSync(join(dir, name), '');
    sweepLeftovers(dir);
    expect(readdirSync(dir).sort()).toEqual(names.slice(2).sort());
  });

  test('the writability probe sweeps the folder it probes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    writeFileSync(join(dir, `.durasim-probe-${deadPid()}`), '');
    checkOutputFolder(join(dir, 'report'), '--report-dir');
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a SIGKILL in the write window leaves a temp file; the next write into that folder removes it, and the file is whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    const module = resolve(import.meta.dirname, 'durableFile.ts');
    // The writer rewrites one 8 MB file without end; killed at once, it is caught in the window between its temp file's creation and its rename most of the time.
    const program = `import { writeFileDurably } from ${JSON.stringify(module)}; const data = 'x'.repeat(8 << 20); process.stdout.write('go\\n'); for (;;) writeFileDurably(${JSON.stringify(join(dir, 'a.json'))}, data);`;
    let leftover: string[] = [];
    for (let attempt = 0; attempt < 10 && leftover.length === 0; attempt++) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((started) => child.stdout.once('data', () => started()));
      await new Promise((wait) => setTimeout(wait, 20 + attempt * 7));
      child.kill('SIGKILL');
      await new Promise((ended) => child.once('exit', ended));
      leftover = readdirSync(dir).filter((name) => name.includes('.durasim-'));
    }
    expect(leftover).toHaveLength(1);
    writeFileDurably(join(dir, 'b.json'), 'next');
    expect(readdirSync(dir).sort()).toEqual(existsSync(join(dir, 'a.json')) ? ['a.json', 'b.json'] : ['b.json']);
    if (existsSync(join(dir, 'a.json'))) expect(readFileSync(join(dir, 'a.json'), 'utf8')).toHaveLength(8 << 20);
  });
});

describe('a journal name becomes a folder name only once made harmless', () => {
  test.each([
    ['reference', 'reference'],
    ['no-fsync', 'no-fsync'],
    ['my.journal_v2', 'my.journal_v2'],
  ])('%s stays %s', (name, folder) => expect(folderName(name)).toBe(folder));

  test.each(['../../x', '/etc', '.hidden', 'a/b', 'a\\b', '..', '', 'spaces in name', 'é'])('%j cannot leave the corpus or hide', (name) => {
    const folder = folderName(name);
    expect(folder).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
    expect(folder).not.toContain('..');
    expect(folder).not.toBe(name);
  });

  test('two names that clean up alike still get two folders', () => {
    expect(folderName('a/b')).not.toBe(folderName('a-b'));
    expect(folderName('a/b')).not.toBe(folderName('a:b'));
  });
});
