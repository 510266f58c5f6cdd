/**
 * The tutorial runs as written: every ```sh block of docs/tutorial.md, from the repository's root,
 * with `npx durasim` as the repository's own bin, must exit with the code its comment names.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** The repository's own bin, as package.json declares it (what npx durasim runs in a clone). */
const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { durasim: string } }).bin.durasim);
const text = readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8');
const commands = [...text.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1] as string);
const quoted = (/```text\n([\s\S]+?)\n```/.exec(text)?.[1] ?? '').split(/…|\n/).map((f) => f.trim()).filter((f) => f.length > 0);

afterAll(() => {
  for (const dir of ['tutorial-report', 'tutorial-regressions']) rmSync(join(ROOT, dir), { recursive: true, force: true });
});

describe('docs/tutorial.md', () => {
  test('has the five commands of its walk-through, and quotes what the first prints', () => {
    expect(commands).toHaveLength(5);
    expect(quoted.length).toBeGreaterThanOrEqual(3);
  });

  test.each(commands.map((command, i) => [i + 1, command] as const))('command %i runs as written: %s', (_i, command) => {
    const match = /^npx durasim (.+?)\s+# exit (\d)$/.exec(command);
    if (!match) throw new Error(`a tutorial command must read "npx durasim … # exit N": ${command}`);
    const args = (match[1] as string).split(/\s+/);
    let code = 0;
    let out = '';
    try {
      out = execFileSync(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: 'pipe', timeout: 110_000 }).toString('utf8');
    } catch (error) {
      code = (error as { status?: number }).status ?? -1;
      out = String((error as { stdout?: Buffer }).stdout ?? '');
    }
    expect(code).toBe(Number(match[2]));
    // The output the tutorial quotes after its first command is what that command prints (… elides).
    if (command === commands[0]) for (const fragment of quoted) expect(out).toContain(fragment);
  }, 120_000);
});
