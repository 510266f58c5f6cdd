/**
 * The module graph cache is the tree's own: a clone whose node_modules (with its .cache, the graph
 * another clone built) was copied in, as a CI cache restores it, runs its own files — never the
 * other tree's, which may have changed or be gone. Two copies of this worktree (its files as they
 * are, not only what is committed), the first one's node_modules copied into the second, the first
 * removed, then an edit in the second: the edit is what runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CODE_ROOT } from './graph.mjs';

const dir = mkdtempSync(join(tmpdir(), 'durasim-relocated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const first = join(dir, 'first');
const second = join(dir, 'second');

/** The worktree's files as they are (tracked and new, not ignored), copied into `to`. */
function copyTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: CODE_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    try {
      cpSync(join(CODE_ROOT, file), join(to, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted in the worktree, not yet committed
    }
  }
}

/** The command in `cwd`, as a user runs it there; a generous hang guard, never a speed gate. */
function durasim(cwd: string, ...argv: string[]): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [join(cwd, 'bin', 'durasim.mjs'), ...argv], { cwd, encoding: 'utf8', timeout: 300_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1' } });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** The graphs in the tree's cache, each with its journal side beside it (src/bin/graph.mjs builds both). */
const graphs = (tree: string): string[] => {
  const names = readdirSync(join(tree, 'node_modules', '.cache', 'durasim'));
  const found = names.filter((name) => /^graph-[0-9a-f]+\.mjs$/.test(name)).sort();
  expect(names.filter((name) => name.endsWith('.journal-side.mjs')).sort()).toEqual(found.map((name) => name.replace(/\.mjs$/, '.journal-side.mjs')));
  return found;
};

beforeAll(() => {
  copyTree(first);
  copyTree(second);
  // The first clone's packages (each linked to this worktree's: its own .cache is what matters here), and a graph built there.
  mkdirSync(join(first, 'node_modules', '.cache'), { recursive: true });
  for (const name of readdirSync(join(CODE_ROOT, 'node_modules'))) if (name !== '.cache') symlinkSync(join(CODE_ROOT, 'node_modules', name), join(first, 'node_modules', name));
  expect(durasim(first, '--version')).toMatchObject({ status: 0 });
  expect(graphs(first)).toHaveLength(1);
  // Its node_modules, .cache and all, restored into the second clone; the first one gone.
  cpSync(join(first, 'node_modules'), join(second, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  rmSync(first, { recursive: true, force: true });
}, 600_000);

describe('a clone whose node_modules came from another clone', () => {
  test('runs its own files from the graph it was handed: its package.json, its pool workers, its journals', () => {
    const pkg = JSON.parse(readFileSync(join(second, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(second, 'package.json'), JSON.stringify({ ...pkg, version: '9.9.9-second' }, null, 2));
    expect(durasim(second, '--version')).toEqual({ status: 0, out: 'durasim 9.9.9-second\n' });
    const check = durasim(second, 'check', '--no-sweep', '--runs', '3', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', 'report', '--regressions', 'regressions');
    expect(check.out).toContain('exit 0 (clean)');
    expect(check.status).toBe(0);
    // Its sources are the first clone's: the graph built there serves here as it is (its paths are relative to it).
    expect(graphs(second)).toHaveLength(1);
  });

  test('an edit of one source file there is what runs', () => {
    const main = join(second, 'src', 'cli', 'main.ts');
    const text = readFileSync(main, 'utf8');
    expect(text).toContain('`durasim ${');
    writeFileSync(main, text.replace('`durasim ${', '`durasim (edited in the second clone) ${'));
    expect(durasim(second, '--version')).toEqual({ status: 0, out: 'durasim (edited in the second clone) 9.9.9-second\n' });
  });
});
