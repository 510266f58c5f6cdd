/**
 * Where the journal is on the real machine never reaches a trace (issue 49 item 5): the same journal
 * folder copied to two places, run as `durasim check` runs it, writes and logs its __filename,
 * __dirname, import.meta, its stacks (its own module's and a CommonJS dependency's), process.argv
 * and a failed import, and loads a builtin through a require of its own — and both copies give one
 * trace hash, with no real folder in it.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { WorkerPool } from '../pool/workerPool.js';
import { journalRefOf } from './journalRef.js';
import { journalPath } from './journalPaths.js';

const root = mkdtempSync(join(tmpdir(), 'durasim-located-'));
const original = join(root, 'original');
mkdirSync(join(original, 'lib'), { recursive: true });
writeFileSync(join(original, 'lib', 'dep.cjs'), `module.exports.fail = function fail() { throw new Error('from the dependency'); };\n`);
writeFileSync(join(original, 'journal.mjs'), `import { createRequire } from 'node:module';
import dep from './lib/dep.cjs';
const ownRequire = createRequire(import.meta.url);
export default {
  name: 'located',
  async run(env) {
    let depStack;
    try { dep.fail(); } catch (error) { depStack = error.stack; console.error(error); }
    console.log(new Error('logged').stack);
    let missing;
    const plugin = ['./plugin', 'nowhere.mjs'].join('-');
    try { await import(plugin); } catch (error) { missing = error.message; }
    const seen = { url: import.meta.url, dirname: import.meta.dirname, filename: __filename, dir: __dirname, own: new Error('own').stack, depStack, argv: process.argv, sep: ownRequire('node:path').sep, missing };
    await env.fs.writeFile('seen.json', JSON.stringify(seen));
  },
  inspect(disk) {
    const text = disk.readFile('seen.json');
    return text === undefined ? {} : { seen: { kind: 'operation', history: [], digest: text } };
  },
};
`);
const copies = [join(root, 'a', 'journal'), join(root, 'b', 'c', 'deeper', 'journal')];
for (const copy of copies) cpSync(original, copy, { recursive: true });

const pool = new WorkerPool({ workers: 1 });
afterAll(() => pool.close());

describe("the journal's real location", () => {
  test('two copies of one journal in two folders give one trace hash, and no real folder is in it', async () => {
    const scenario = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } };
    const runs = [];
    for (const copy of copies) {
      const loaded = await pool.load(journalRefOf(join(copy, 'journal.mjs')));
      const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
      if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`the journal did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
      runs.push(outcome.result);
    }
    const [first, second] = runs as [NonNullable<(typeof runs)[0]>, NonNullable<(typeof runs)[0]>];
    expect(first.escapes).toEqual([]);
    const seen = JSON.parse((first.final.visible.seen as { digest: string }).digest) as Record<string, unknown>;
    expect(seen).toMatchObject({ url: 'file:///journal/journal.mjs', dirname: '/journal', filename: '/journal/journal.mjs', dir: '/journal', argv: ['/usr/local/bin/node', '/journal'], sep: '/', missing: "Cannot find module './plugin-nowhere.mjs' imported from file:///journal/journal.mjs" });
    expect(seen.own).toMatch(/^Error: own\n {4}at Object\.run \(\/journal\/journal\.mjs:\d+:\d+\)/);
    expect(seen.depStack).toMatch(/^Error: from the dependency\n {4}at Object\.fail \(\/journal\/journal\.mjs:\d+:\d+\)/);
    // What it logged is in the trace, its frames at their places in its own files, as it sees them.
    const logged = first.trace.filter((e) => e.op === 'stdout' || e.op === 'stderr').map((e) => e.detail).join('\n');
    expect(logged).toMatch(/Error: from the dependency\n {4}at Object\.fail \(\/journal\/lib\/dep\.cjs:1:\d+\)\n {4}at Object\.run \(\/journal\/journal\.mjs:\d+:\d+\)\n/);
    expect(logged).toMatch(/Error: logged\n {4}at Object\.run \(\/journal\/journal\.mjs:\d+:\d+\)$/);
    expect(second.traceHash).toBe(first.traceHash);
    expect(JSON.stringify(first.trace)).not.toContain(root);
  });
});

describe('journalPath', () => {
  test("a file is named from the entry's folder, and a folder above it as @up", () => {
    const entry = join(root, 'a', 'journal', 'journal.mjs');
    expect(journalPath(entry, entry)).toBe('/journal/journal.mjs');
    expect(journalPath(entry, join(root, 'a', 'journal', 'lib', 'dep.cjs'))).toBe('/journal/lib/dep.cjs');
    expect(journalPath(entry, join(root, 'a', 'node_modules', 'x', 'index.js'))).toBe('/journal/@up/node_modules/x/index.js');
  });
});
