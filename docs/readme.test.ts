/**
 * The README's commands hold in a clone: its quick start runs as written (after the npm ci that
 * .ci/run does), the command npm links answers --version with no build, and every `npx durasim`
 * line names a command durasim has.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';
import { REGRESSIONS_DIR } from '../src/regressions.js';
import { ciRecipe, section, shellCommands } from './shellBlocks.js';

const ROOT = resolve(import.meta.dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: { durasim: string }; scripts: Record<string, string> };
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('README.md, in a clone', () => {
  test('it opens with the two commands of a project (install, check), then the clone\'s quick start: `npm ci && npm start` and `npm test`, which .ci/run calls', () => {
    expect(readme.indexOf('## In your project')).toBeLessThan(readme.indexOf('## Quick start'));
    expect(shellCommands(section(readme, '## In your project')).slice(0, 2).map((c) => c.command)).toEqual(['npm install --save-dev durasim', 'npx durasim check']);
    const commands = shellCommands(section(readme, '## Quick start (a clone of this repository)')).map((c) => c.command);
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    // Each a stage of its own under a hang guard: stage NAME LIMIT COMMAND.
    expect(ci).toMatch(/^stage 'npm ci' \d+ npm ci\b/m);
    expect(ci).toMatch(/^stage 'npm test' \d+ npm test$/m);
  });

  // A small budget and a small task here (one publish, no features: its sweep judges 88 crash points, the standard task's 262):
  // what this holds is the script (the reference journal, the sweep first, clean); the standard task's whole sweep of the
  // reference is the README's `npx durasim check`, which CI runs as written (.ci/run, the package stage).
  test('npm start runs a check of the bundled reference journal, its single-fault sweep and two-fault pairs first, clean (a small budget here)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-readme-'));
    try {
      const out = execFileSync(NPM, ['start', '--', '--runs', '20', '--seed', '1', '--operations', 'publish', '--features', 'none', '--pair-runs', '40', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'], { cwd: ROOT, stdio: 'pipe', timeout: 300_000 }).toString('utf8');
      expect(out).toMatch(/^seed 1 · .* · 20 runs · single-fault sweep and two-fault pairs first · /m);
      // The default check sweeps every single fault at every step of the standard task before the drawn runs, then the two-fault pairs on
      // their bound (40 runs here, where the default 500 took 565 runs: pairs.test holds what they find).
      expect(out).toMatch(/^single-fault sweep: \d+ states judged at every one of the fault-free run's \d+ crash points in \d+ runs, /m);
      expect(out).toMatch(/^two-fault pairs: \d+ of the \d+ pairs kept by dependency \(of \d+\) tried in \d+ runs, .* — cut short at their bound of 40 runs: --pair-runs N raises it$/m);
      expect(out).toMatch(/runs in .*: clean$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the command npm links (npx durasim) runs from a clone with no build: --version', () => {
    expect(pkg.bin.durasim).toBe('bin/durasim.mjs');
    const out = execFileSync(process.execPath, [join(ROOT, pkg.bin.durasim), '--version'], { cwd: ROOT, stdio: 'pipe' }).toString('utf8');
    expect(out.trim()).toBe(`durasim ${pkg.version}`);
  });

  test("the CI recipe's artifact holds every path a shard's check writes and prints (reports, JUnit file, the regressions its replay commands name), and the verdict job puts them back where they were printed", () => {
    const recipe = ciRecipe(readme);
    const shard = (path: string): string => path.replaceAll('${{ matrix.shard }}', '1');
    // A flag's value, `${{ matrix.shard }}` and all.
    const flag = (name: string): string | undefined => new RegExp(`--${name} ((?:\\$\\{\\{[^}]*\\}\\}|\\S)+)`).exec(recipe.check)?.[1];
    const printed = [flag('report-dir'), flag('junit'), flag('regressions') ?? REGRESSIONS_DIR].map((path) => shard(path ?? ''));
    expect(printed.every((path) => path.length > 0), recipe.check).toBe(true);
    const uploaded = recipe.uploaded.map(shard);
    for (const path of printed) expect(uploaded.some((folder) => path === folder || path.startsWith(`${folder}/`)), `${path} is not under ${uploaded.join(', ')}`).toBe(true);
    expect(recipe.downloadedTo).toBe('.');
    expect(recipe.merge).toBe(`npx durasim merge ${(flag('report-dir') ?? '').replace('${{ matrix.shard }}', '*')}/summary.json`);
  });

  test('every `npx durasim` line names one of its commands', () => {
    const lines = [...readme.matchAll(/npx durasim ([a-z][\w-]*)/g)].map((m) => m[1] as string);
    expect(lines.length).toBeGreaterThan(5);
    for (const command of lines) expect(COMMANDS, command).toContain(command);
  });
});
