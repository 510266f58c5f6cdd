/**
 * A limit, asserted so that a change to it is seen: a journal's code runs in sloppy mode, where Node
 * runs an ES module (and a CommonJS file that says "use strict") in strict mode. durasim bundles the
 * journal and what it imports into one CommonJS body (esbuild), whose ES modules share one scope
 * and inherit its mode; and the lock on JavaScript's builtins (simulator/sandbox/lockIntrinsics.ts)
 * relies on it: an assignment to a locked builtin fails silently in sloppy code, but would throw a
 * TypeError into a strict journal that Node never throws (a finding production does not have).
 * Each case's module is run by real Node and by the pool's worker, which reports what it saw.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from './journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';

const PROBE = "(function () { return this === undefined ? 'strict' : 'sloppy'; })() + ' ' + (() => { try { Object.freeze({ a: 1 }).a = 2; return 'ignored'; } catch (error) { return error.name; } })()";
const dir = mkdtempSync(join(tmpdir(), 'durasim-sloppy-'));
const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

write('esm.mjs', `export const seen = ${PROBE};\n`);
write('cjsStrict.cjs', `'use strict';\nexports.seen = ${PROBE};\n`);
write('cjsSloppy.cjs', `exports.seen = ${PROBE};\n`);

/** A journal that writes what the module `from` saw. */
function journalOf(from: string): string {
  return write(`journal-${from.replace(/\W/g, '_')}.mjs`, `import { seen } from './${from}';
export default {
  name: 'mode-${from}',
  async run(env) { await env.fs.writeFile('seen.txt', String(seen)); },
  inspect(disk) { return { seen: { kind: 'operation', history: [], digest: disk.readFile('seen.txt') ?? '' } }; },
};
`);
}

/** What real Node's module `from` sees. */
function inNode(from: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', `import { seen } from ${JSON.stringify(join(dir, from))}; process.stdout.write(seen);`], { encoding: 'utf8' });
}

let pool: WorkerPool;
beforeAll(() => {
  pool = new WorkerPool({ workers: 1 });
});
afterAll(() => pool.close());

async function underDurasim(from: string): Promise<string> {
  const loaded = await pool.load(journalRefOf(journalOf(from)));
  const outcome = await pool.run(loaded.journalId, { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } }, { detail: 'full' });
  const result = outcome.kind === 'simulated' ? outcome.result : undefined;
  return String((result?.final.visible.seen as { digest?: string } | undefined)?.digest);
}

describe("a journal's code runs in sloppy mode (a limit)", () => {
  test.each([
    ['an ES module: strict in Node, sloppy under durasim', 'esm.mjs', 'strict TypeError', 'sloppy ignored'],
    ['a CommonJS file that says "use strict": strict in both (its own function keeps the directive)', 'cjsStrict.cjs', 'strict TypeError', 'strict TypeError'],
    ['a CommonJS file that does not: sloppy in both', 'cjsSloppy.cjs', 'sloppy ignored', 'sloppy ignored'],
  ])('%s', async (_name, from, node, durasim) => {
    expect(inNode(from)).toBe(node);
    expect(await underDurasim(from)).toBe(durasim);
  });
});
