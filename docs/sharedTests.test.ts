import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ISOLATED_AMONG_SHARED, SHARED } from '../vitest.config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a test file that shares its process with the next ones must not do: each leaves something behind. */
const LEAVES_BEHIND: readonly [RegExp, string][] = [
  [/\bvi\.(spyOn|mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/, 'a spy, a mock, a stubbed global or fake timers'],
  [/\bprocess\.chdir\(/, 'a change of the working folder'],
  [/\bprocess\.env\.[A-Za-z_$][\w$]*\s*=[^=]|\bprocess\.env\[[^\]]+\]\s*=[^=]/, 'a change of the environment'],
  [/\bglobalThis\.[A-Za-z_$][\w$]*\s*=[^=]/, 'a global of its own'],
  // A shared process's second copy of durasim's modules guarded the builtins again on top of the first's guards, and a later file's simulation overflowed the stack.
  [/\bvi\.resetModules\(/, "a module registry emptied (the next file loads second copies of durasim's modules)"],
  [/\bsetupServer\(/, "msw's interceptors on the process's fetch and http"],
  [/\bcompileJournal\(/, "a journal compiled in the test process (its instances forget every global added after it was compiled, another file's too)"],
];

/**
 * What in `text` would leave something behind for the next file in a shared process. A line that
 * says `shared-safe:` and why is not counted (journal code touching its simulated process.env, say).
 */
export function leftBehind(text: string): string[] {
  const counted = text.split('\n').filter((line) => !line.includes('shared-safe:')).join('\n');
  return LEAVES_BEHIND.filter(([pattern]) => pattern.test(counted)).map(([, what]) => what);
}

/** A glob of the config (`dir/**\/*.test.ts`: it ends in a file's pattern) as a regular expression over paths from the root. */
function globRegExp(glob: string): RegExp {
  const parts = glob.split('/').map((part) => (part === '**' ? '(?:.+/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`));
  return new RegExp(`^${parts.join('').slice(0, -1)}$`);
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'fixtures') out.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

describe('test files that share a process (vitest.config.ts, isolate: false)', () => {
  const shared = ['simulator', 'model', 'src', 'properties', 'docs']
    .flatMap(testFiles)
    .filter((path) => SHARED.some((glob) => globRegExp(glob).test(path)) && !ISOLATED_AMONG_SHARED.includes(path));
  /** This file names what it looks for. */
  const scanned = shared.filter((path) => path !== 'docs/sharedTests.test.ts');

  test('the config shares the folders it names, and keeps its exceptions apart', () => {
    expect(shared).toContain('simulator/simulate.test.ts');
    expect(shared).toContain('properties/invariants.test.ts');
    expect(shared).toContain('docs/sharedTests.test.ts');
    expect(shared).not.toContain('src/report/timeline.test.ts');
    expect(shared).not.toContain('src/cli/cli.test.ts');
    expect(shared.length).toBeGreaterThan(90);
  });

  test('none leaves anything behind for the next file', () => {
    const problems = scanned.flatMap((path) => leftBehind(readFileSync(join(ROOT, path.split('/').join(sep)), 'utf8')).map((what) => `${relative('.', path)}: ${what}`));
    expect(problems).toEqual([]);
  });

  test('the check finds each thing a file could leave behind', () => {
    expect(leftBehind("vi.spyOn(console, 'log')")).toEqual(['a spy, a mock, a stubbed global or fake timers']);
    expect(leftBehind("process.chdir('/tmp')")).toEqual(['a change of the working folder']);
    expect(leftBehind("process.env.DURASIM_X = '1'")).toEqual(['a change of the environment']);
    expect(leftBehind("process.env['X'] = '1'")).toEqual(['a change of the environment']);
    expect(leftBehind('globalThis.cache = new Map()')).toEqual(['a global of its own']);
    expect(leftBehind('await compileJournal(bundle, index)')).toHaveLength(1);
    expect(leftBehind('beforeEach(() => { vi.resetModules(); });')).toEqual(["a module registry emptied (the next file loads second copies of durasim's modules)"]);
    expect(leftBehind('const server = setupServer(...handlers);')).toEqual(["msw's interceptors on the process's fetch and http"]);
    expect(leftBehind("if (process.env.CI === 'true') expect(globalThis.fetch === undefined).toBe(false);")).toEqual([]);
    expect(leftBehind("process.env.GREETING = 'x'; // shared-safe: the simulated process's own")).toEqual([]);
  });
});
