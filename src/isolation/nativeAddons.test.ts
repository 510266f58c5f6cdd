/**
 * A native addon durasim does not serve is refused before any run — exit 4, naming the addon and
 * the journal's own import line — never left to fail in every run as a journal error ("Could not
 * find module root given file …", exit 3). The class: a package that builds an addon (binding.gyp,
 * or "gypfile" in package.json), imported directly or through another package, and a prebuilt
 * `.node` binary reached by a require (napi-rs's platform packages).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { bundleJournal } from './bundleJournal.js';
import { journalRefOf } from './journalRef.js';
import { nativeAddonOf, packageOf, UnservedAddonError } from './nativeAddons.js';
import { main } from '../cli/main.js';

let dir = '';
const write = (path: string, text: string): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
// Its run() names every import it may have (TypeScript drops an import nothing uses).
const JOURNAL_TAIL = "export default { name: 'addon-journal', async run(env) { await env.clock.now(); return [typeof db, typeof kv, typeof store]; }, inspect: () => ({}) };\n";

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-addon-'));
  // An addon built by node-gyp, loaded as better-sqlite3 loads its own (bindings finds the binary beside package.json).
  write('node_modules/gyp-db/package.json', JSON.stringify({ name: 'gyp-db', version: '1.0.0', main: 'index.js' }));
  write('node_modules/gyp-db/binding.gyp', '{ "targets": [] }\n');
  write('node_modules/gyp-db/index.js', "module.exports = require('./lib/native.js');\n");
  write('node_modules/gyp-db/lib/native.js', "module.exports = require('bindings')('gyp_db.node');\n");
  write('node_modules/bindings/package.json', JSON.stringify({ name: 'bindings', version: '1.5.0', main: 'bindings.js' }));
  write('node_modules/bindings/bindings.js', 'module.exports = (name) => { throw new Error(`Could not find module root given file: ${name}`); };\n');
  // A package that wraps it: the journal never names the addon itself.
  write('node_modules/kv-wrapper/package.json', JSON.stringify({ name: 'kv-wrapper', version: '2.0.0', main: 'index.js' }));
  write('node_modules/kv-wrapper/index.js', "const db = require('gyp-db');\nmodule.exports = { open: () => db };\n");
  // A prebuilt binary reached by a require of its file (napi-rs ships them so), declared with gypfile nowhere.
  write('node_modules/@napi/store/package.json', JSON.stringify({ name: '@napi/store', version: '0.3.0', main: 'index.js' }));
  write('node_modules/@napi/store/index.js', "module.exports = require('./store.linux-x64-gnu.node');\n");
  write('node_modules/@napi/store/store.linux-x64-gnu.node', 'not really ELF');
  // A package that declares gypfile in package.json, with no binding.gyp at its root.
  write('node_modules/declared/package.json', JSON.stringify({ name: 'declared', version: '1.0.0', main: 'index.js', gypfile: true }));
  write('node_modules/declared/index.js', 'module.exports = {};\n');
});


describe('which modules are native addons', () => {
  test('a package with binding.gyp or gypfile, a .node binary; not a plain package nor a file outside node_modules', () => {
    expect(nativeAddonOf(join(dir, 'node_modules/gyp-db/lib/native.js'))).toBe('gyp-db');
    expect(nativeAddonOf(join(dir, 'node_modules/declared/index.js'))).toBe('declared');
    expect(nativeAddonOf(join(dir, 'node_modules/@napi/store/store.linux-x64-gnu.node'))).toBe('@napi/store');
    expect(nativeAddonOf(join(dir, 'node_modules/kv-wrapper/index.js'))).toBeUndefined();
    expect(nativeAddonOf(join(dir, 'journal.ts'))).toBeUndefined();
    expect(packageOf(join(dir, 'node_modules/a/node_modules/@s/b/x.js'))).toEqual({ name: '@s/b', root: join(dir, 'node_modules/a/node_modules/@s/b') });
  });
});

describe('bundling a journal that imports one', () => {
  const refused = async (journal: string): Promise<UnservedAddonError> => {
    write('journal.ts', journal);
    const error = await bundleJournal(journalRefOf(join(dir, 'journal.ts'))).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UnservedAddonError);
    return error as UnservedAddonError;
  };
  const where = (): string => relative(process.cwd(), join(dir, 'journal.ts'));

  test('directly: named, with the journal\'s import line', async () => {
    const error = await refused(`import { writeFileSync } from 'node:fs';\nimport db from 'gyp-db';\n${JOURNAL_TAIL}`);
    expect(error.addon).toBe('gyp-db');
    expect(error.message).toBe(
      `Failed to load the journal: ${where()}:2 (import db from 'gyp-db';) imports gyp-db, a native addon: its C code reads and writes files out of the simulated disk's sight (no crash state, no power loss, no I/O error could reach what it keeps), and it cannot load from the journal's bundle. durasim serves better-sqlite3 in its place; keep the journal's state through it or through node:fs (docs/sqlite.md).`,
    );
  });

  test('through another package: the journal\'s own line names the package it imports', async () => {
    const error = await refused(`const kv = require('kv-wrapper');\n${JOURNAL_TAIL}`);
    expect(error.message).toContain(`${where()}:1 (const kv = require('kv-wrapper');) imports gyp-db through kv-wrapper, a native addon`);
  });

  test('a prebuilt .node binary, and a package that declares gypfile', async () => {
    expect((await refused(`import store from '@napi/store';\n${JOURNAL_TAIL}`)).message).toContain(`${where()}:1 (import store from '@napi/store';) imports @napi/store, a native addon`);
    expect((await refused(`\n\nimport 'declared';\n${JOURNAL_TAIL}`)).message).toContain(`${where()}:3 (import 'declared';) imports declared, a native addon`);
  });

  test('a journal with no addon bundles as before', async () => {
    write('journal.ts', `import { readFileSync } from 'node:fs';\n${JOURNAL_TAIL}`);
    await expect(bundleJournal(journalRefOf(join(dir, 'journal.ts')))).resolves.toMatchObject({ code: expect.stringContaining('addon-journal') as unknown });
  });
});

describe('the command line', () => {
  test('check refuses it with exit 4 before any run, its reason on one line, no report written', async () => {
    write('journal.ts', `import db from 'gyp-db';\n${JOURNAL_TAIL}`);
    const out: string[] = [];
    const code = await main(['check', '--no-sweep', '--journal', join(dir, 'journal.ts'), '--runs', '5', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'], (line) => out.push(line));
    expect(code).toBe(4);
    expect(out.filter((line) => line.startsWith('sandbox: '))).toEqual([
      `sandbox: Failed to load the journal: ${where()}:1 (import db from 'gyp-db';) imports gyp-db, a native addon: its C code reads and writes files out of the simulated disk's sight (no crash state, no power loss, no I/O error could reach what it keeps), and it cannot load from the journal's bundle. durasim serves better-sqlite3 in its place; keep the journal's state through it or through node:fs (docs/sqlite.md).`,
    ]);
    expect(out.join('\n')).not.toMatch(/journal-error|liveness/);
  });
  const where = (): string => relative(process.cwd(), join(dir, 'journal.ts'));
});
