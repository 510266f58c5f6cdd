/**
 * No wall-clock budgets in tests (README, Development): a test's timeout is a hang guard, never a
 * speed gate, and a busy machine (two busy loops beside the suite, other suites on the same cores,
 * a disk others fsync to) must not reach it. So, in every test file:
 * - no test or hook sets a timeout under HANG_GUARD_MS (vitest.config.ts's default for all,
 *   properties/budgets.ts): a larger one is named, derived from the work the test does;
 * - no assertion is made on wall time elapsed (`expect(wallMs() - started).toBeLessThan(…)`);
 * - a child process a test runs has a hang guard of at least CHILD_HANG_GUARD_MS.
 * Timings are `npm run bench`'s, never a test's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { CHILD_HANG_GUARD_MS, hangGuard, HANG_GUARD_MS, PROPERTY_TIMEOUT_MS } from '../properties/budgets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== 'node_modules') out.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const TESTS = /^(test|it|describe)$/;
const HOOKS = /^(beforeAll|afterAll|beforeEach|afterEach)$/;
const CHILDREN = /^(spawnSync|execFileSync|execSync|spawn|execFile|exec)$/;
const WALL = /\b(performance\.now|Date\.now|wallMs|hrtime|elapsed|started)\b/;

/** The identifier a call starts from: `test` for test.each(...)(…), test.prop(…)(…), it.skip(…). */
function rootName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return rootName(node.expression);
  if (ts.isCallExpression(node)) return rootName(node.expression);
  return undefined;
}

/** A number written in the code (60_000), or undefined for anything else (a name, a call). */
function literal(node: ts.Node | undefined): number | undefined {
  return node !== undefined && ts.isNumericLiteral(node) ? Number(node.text.replace(/_/g, '')) : undefined;
}

/** The `timeout` of an options object literal ({ timeout: 15_000 }), if it is one with a number there. */
function timeoutOption(node: ts.Node | undefined): number | undefined {
  if (node === undefined || !ts.isObjectLiteralExpression(node)) return undefined;
  for (const property of node.properties) {
    if (ts.isPropertyAssignment(property) && property.name.getText() === 'timeout') return literal(property.initializer);
  }
  return undefined;
}

/** What in a test file's text breaks the rule, each as `line: what`. */
export function wallClockBudgets(text: string, file = 'x.test.ts'): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  const at = (node: ts.Node, what: string): void => {
    problems.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = rootName(node.expression);
      const args = node.arguments;
      if (name !== undefined && TESTS.test(name) && args.length >= 2) {
        // test(name, fn, 60_000), test(name, fn, { timeout }), test(name, { timeout }, fn)
        args.slice(1).forEach((arg, i) => {
          const ms = (i === args.length - 2 ? literal(arg) : undefined) ?? timeoutOption(arg);
          if (ms !== undefined && ms < HANG_GUARD_MS) at(arg, `a test timeout of ${ms} ms, under the hang guard of ${HANG_GUARD_MS}`);
        });
      }
      if (name !== undefined && HOOKS.test(name) && args.length >= 2) {
        const ms = literal(args[1]) ?? timeoutOption(args[1]);
        if (ms !== undefined && ms < HANG_GUARD_MS) at(args[1] as ts.Node, `a hook timeout of ${ms} ms, under the hang guard of ${HANG_GUARD_MS}`);
      }
      if (name !== undefined && CHILDREN.test(name) && ts.isIdentifier(node.expression)) {
        for (const arg of args) {
          const ms = timeoutOption(arg);
          if (ms !== undefined && ms < CHILD_HANG_GUARD_MS) at(arg, `a child process's timeout of ${ms} ms, under ${CHILD_HANG_GUARD_MS}`);
        }
      }
      // expect(<wall time>).toBeLessThan(…): a speed gate.
      if (ts.isPropertyAccessExpression(node.expression) && /^toBeLessThan(OrEqual)?$/.test(node.expression.name.text)) {
        const subject = node.expression.expression;
        if (ts.isCallExpression(subject) && rootName(subject.expression) === 'expect' && WALL.test(subject.arguments[0]?.getText() ?? '')) {
          at(node, `an assertion on wall time: ${node.getText().slice(0, 80)}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

describe('no wall-clock budgets in tests', () => {
  test('no test file sets a timeout a busy machine reaches, or asserts on wall time', () => {
    const files = ['src', 'simulator', 'model', 'properties', 'docs', 'examples'].flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((path) => wallClockBudgets(readFileSync(join(ROOT, path.split('/').join(sep)), 'utf8'), path).map((problem) => `${path}:${problem}`));
    expect(problems).toEqual([]);
  });

  test('the named guards are never under the default one, and grow with the work', () => {
    expect(PROPERTY_TIMEOUT_MS).toBeGreaterThanOrEqual(HANG_GUARD_MS);
    expect(hangGuard(10, 1000)).toBe(HANG_GUARD_MS);
    expect(hangGuard(2000, 500)).toBe(1_000_000);
  });

  test('the check finds each form', () => {
    expect(wallClockBudgets("test('a', async () => {}, 60_000);")).toEqual([`1: a test timeout of 60000 ms, under the hang guard of ${HANG_GUARD_MS}`]);
    expect(wallClockBudgets("test.each([1])('a %s', () => {}, 30_000);")).toHaveLength(1);
    expect(wallClockBudgets("test.prop([fc.nat()], { numRuns: 5 })('a', () => {}, 300_000);")).toHaveLength(1);
    expect(wallClockBudgets("it('a', { timeout: 1000 }, () => {});")).toHaveLength(1);
    expect(wallClockBudgets("test('a', () => {}, { timeout: 1000 });")).toHaveLength(1);
    expect(wallClockBudgets("beforeAll(() => {}, 120_000);")).toEqual([`1: a hook timeout of 120000 ms, under the hang guard of ${HANG_GUARD_MS}`]);
    expect(wallClockBudgets("const started = wallMs();\nexpect(wallMs() - started).toBeLessThan(10_000);")).toEqual(['2: an assertion on wall time: expect(wallMs() - started).toBeLessThan(10_000)']);
    expect(wallClockBudgets('expect(performance.now() - t0).toBeLessThanOrEqual(5);')).toHaveLength(1);
    expect(wallClockBudgets("execFileSync(process.execPath, ['-e', code], { timeout: 15_000 });")).toHaveLength(1);
    // Not speed gates: a named guard, a count, a virtual timer, a request's own timeout on the virtual clock, a lower bound on a real wait.
    expect(wallClockBudgets("test('a', () => {}, PROPERTY_TIMEOUT_MS);\ntest('b', () => {}, hangGuard(2000, 500));")).toEqual([]);
    expect(wallClockBudgets('expect(report.length).toBeLessThan(200_000);')).toEqual([]);
    expect(wallClockBudgets('setInterval(() => {}, 1000);\nhttp.request(url, { timeout: 1500 });')).toEqual([]);
    expect(wallClockBudgets('expect(real.wallMs).toBeGreaterThanOrEqual(600);')).toEqual([]);
  });
});
