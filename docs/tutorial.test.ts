/**
 * docs/tutorial.md's shape: its commands are a copy of the shipped example and `npx durasim`
 * commands that name durasim's own, each with the exit code it must give, and it quotes what the
 * first check prints. The commands themselves run, as written, in src/package.test.ts: in a
 * fresh project with the packed package installed, which is where a reader types them.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';
import { quotedFragments, shellCommands } from './shellBlocks.js';

const ROOT = resolve(import.meta.dirname, '..');
const text = readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

describe('docs/tutorial.md', () => {
  const commands = shellCommands(text);

  test('copies the shipped example, then runs five durasim commands, each naming its exit code', () => {
    expect(text.match(/```sh\n/g)).toHaveLength(6);
    expect(text.match(/^[^\n]+# exit \d$/gm)).toHaveLength(6);
    expect(commands).toHaveLength(6);
    expect(commands[0]?.command).toBe('mkdir -p my-journal && cp node_modules/durasim/examples/node-journal/*.ts my-journal/');
    for (const shipped of ['examples/node-journal/journal.ts', 'examples/node-journal/journal-unsynced.ts']) expect(pkg.files).toContain(shipped);
    for (const { command } of commands.slice(1)) {
      const name = /^npx durasim (\S+) /.exec(command)?.[1];
      expect(COMMANDS, command).toContain(name);
      expect(command).toMatch(/--journal my-journal\/journal(-unsynced)?\.ts/);
    }
    expect(commands.map((c) => c.exit)).toEqual([0, 1, 1, 1, 0, 0]);
  });

  test('quotes what the first check prints', () => {
    expect(quotedFragments(text).length).toBeGreaterThanOrEqual(3);
  });
});
