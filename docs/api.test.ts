/**
 * docs/api.md and the root export are held to each other: every name `durasim` exports (values and
 * types, as TypeScript sees the module) has a row in the page, and every row names an export; what
 * moved to `durasim/internals` stays out of the root.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import * as root from '../src/index.js';
import * as internals from '../src/internals.js';

const ROOT = resolve(import.meta.dirname, '..');

/** The names a module exports, values and types, as the compiler resolves them. */
function exportedNames(file: string): string[] {
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`no module symbol for ${file}`);
  return checker.getExportsOfModule(symbol).map((s) => s.name).sort();
}

const documented = [...readFileSync(resolve(ROOT, 'docs/api.md'), 'utf8').matchAll(/^\| `([A-Za-z_]+)` \|/gm)].map((m) => m[1] as string).sort();

describe('the public API', () => {
  test('every root export has a row in docs/api.md, and every row names a root export', () => {
    const names = exportedNames(resolve(ROOT, 'src/index.ts'));
    expect(names.length).toBeGreaterThan(60);
    expect(documented).toEqual(names);
  });

  test('the root exports a few dozen values a user writes with; durasim\'s own machinery is internals only', () => {
    const values = Object.keys(root).sort();
    expect(values.length).toBeLessThanOrEqual(35);
    for (const name of ['WorkerPool', 'hunt', 'huntJournal', 'ServiceCore', 'MUTANTS', 'saveRegression', 'failureMessage', 'reportUncaught', 'CHECKS']) {
      expect(root, name).not.toHaveProperty(name);
      expect(internals, name).toHaveProperty(name);
    }
    expect(values.filter((name) => name in internals)).toEqual([]);
  });
});
