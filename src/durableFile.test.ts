import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeDirDurably, removeDurably, removeStaleTemps, writeFileDurably } from './durableFile.js';
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

  test('folders are made level by level; stale temporary files of a killed writer are removed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-durable-'));
    makeDirDurably(join(dir, 'a', 'b', 'c'));
    expect(existsSync(join(dir, 'a', 'b', 'c'))).toBe(true);
    writeFileSync(join(dir, '.summary.json.durasim-123-0.tmp'), '');
    writeFileSync(join(dir, 'keep.tmp'), '');
    removeStaleTemps(dir);
    expect(readdirSync(dir).sort()).toEqual(['a', 'keep.tmp']);
    removeDurably(join(dir, 'keep.tmp'));
    expect(readdirSync(dir)).toEqual(['a']);
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
