/**
 * cp as Node runs it, by scenario format (fsCompound.ts CP_SYNC_CHECKS_FIRST_VERSION): from format
 * 3, cpSync checks its pair as Node 22 and 24 do — a folder without `recursive` fails before
 * anything is made, a target it cannot stat is no target, a target whose folder is the source is a
 * copy into itself; formats 1 and 2 replay Node 20's order (the target's parent made first, the
 * stat's error standing). cp and fs.promises.cp make the parent first in
 * every format, as every line does. (The differential half: properties/servedFsConformance.test.ts.)
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../../src/arbitraries.js';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { SCENARIO_VERSION } from '../../scenario/scenario.js';
import { simulate } from '../../simulate.js';
import { CP_SYNC_CHECKS_FIRST_VERSION } from './fsCompound.js';

type Form = 'sync' | 'callback' | 'promise';

/** A folder `d` and a file `a`; each source copied without recursive to its target in `form` (a bare target: from `d`): the error codes, and which names are there after. */
async function copied(form: Form, version: number, targets: (string | [string, string])[]): Promise<{ codes: string[]; names: string[] }> {
  const codes: string[] = [];
  let names: string[] = [];
  const copy = (pair: string | [string, string]): Promise<void> | void => {
    const [from, to] = typeof pair === 'string' ? ['d', pair] : pair;
    if (form === 'sync') return fs.cpSync(from, to, { recursive: false });
    if (form === 'promise') return fsp.cp(from, to, { recursive: false });
    return new Promise<void>((resolve, reject) => fs.cp(from, to, { recursive: false }, (error) => (error ? reject(error) : resolve())));
  };
  const journal: JournalAdapter = {
    name: 'cp-forms',
    run: async () => {
      fs.mkdirSync('d');
      fs.writeFileSync('a', 'x');
      for (const to of targets) {
        try {
          await copy(to);
          codes.push('ok');
        } catch (error) {
          codes.push((error as { code: string }).code);
        }
      }
      names = fs.readdirSync('.').sort();
    },
    inspect: () => ({}),
  };
  const result = await simulate(journal, { ...baseScenario([]), task: { id: 'cp', operations: [] }, version });
  expect(result.outcome).toEqual({ kind: 'completed' });
  return { codes, names };
}

describe('cp of a folder without recursive, by scenario format', () => {
  test('the rule starts at the format durasim writes now', () => {
    expect(CP_SYNC_CHECKS_FIRST_VERSION).toBe(SCENARIO_VERSION);
  });

  test("format 3: cpSync fails before making the target's parent, takes a target it cannot stat for none, and a file into itself is a copy into itself (Node 22 and 24)", async () => {
    expect(await copied('sync', 3, ['b/e', 'a/x', 'a/', 'd/e/b', ['a', '/work/a/x']])).toEqual({ codes: ['ERR_FS_EISDIR', 'ERR_FS_EISDIR', 'ERR_FS_EISDIR', 'ERR_FS_CP_EINVAL', 'ERR_FS_CP_EINVAL'], names: ['a', 'd'] });
  });

  test("format 3: Node 22 and 24's walk up the target's folders compares the paths as given: a bare name has no folder to walk", async () => {
    expect(await copied('sync', 3, [['a', 'a/x'], ['./a', './a/x']])).toEqual({ codes: ['ENOTDIR', 'ERR_FS_CP_EINVAL'], names: ['a', 'd'] });
  });

  test.each(['callback', 'promise'] as const)("format 3: the %s form makes the target's parent first, as on every line", async (form) => {
    expect(await copied(form, 3, ['b/e'])).toEqual({ codes: ['ERR_FS_EISDIR'], names: ['a', 'b', 'd'] });
  });

  test.each(['sync', 'callback', 'promise'] as const)("format 2 replays Node 20's order (%s): the parent made first, the target's stat error standing", async (form) => {
    expect(await copied(form, 2, ['b/e', 'a/x', ['a', '/work/a/x']])).toEqual({ codes: ['ERR_FS_EISDIR', 'ENOTDIR', 'ENOTDIR'], names: ['a', 'b', 'd'] });
  });
});
