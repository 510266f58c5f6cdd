// Not an attack: checks each g*.mjs stash in a plain Node process (no durasim): put('x'), then get('x')
// must be truthy and get('never') falsy; then put('y'), and get('x') and get('y') must both be truthy
// (a second put must not wipe the first mark). Each file runs in its own child process, with '../_memjournal.mjs'
// stubbed by a loader hook (so durasim's TypeScript sources are never loaded).
// Usage: node _selftest5.mjs [files...]     (default: every g*.mjs here)
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const child = process.argv[2] === '--child';
if (child) {
  const { register } = await import('node:module');
  const stub = 'data:text/javascript,' + encodeURIComponent('export function memoryJournal(name, stash) { return { name, stash }; }');
  const hooks = 'data:text/javascript,' + encodeURIComponent(
    `export async function resolve(s, c, next) { if (s.endsWith('/_memjournal.mjs')) return { url: ${JSON.stringify(stub)}, shortCircuit: true }; return next(s, c); }`);
  register(hooks);
  const f = process.argv[3];
  let line;
  try {
    const m = await import(pathToFileURL(join(here, f)).href);
    const before = await m.stash.get('x');
    await m.stash.put('x');
    const after = await m.stash.get('x');
    const never = await m.stash.get('never');
    await m.stash.put('y');
    const both = !!(await m.stash.get('x')) && !!(await m.stash.get('y'));
    const pass = !!after && !never && both;
    line = { file: f, pass, before: !!before, after: !!after, never: !!never, both };
  } catch (e) { line = { file: f, pass: false, error: String(e?.message ?? e).split('\n')[0] }; }
  console.log('SELFTEST ' + JSON.stringify(line));
} else {
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(here).filter((f) => /^g\d\d-.*\.mjs$/.test(f)).sort();
  for (const f of files) {
    const r = spawnSync(process.execPath, ['--no-warnings', fileURLToPath(import.meta.url), '--child', f], { encoding: 'utf8', timeout: 120000 });
    const m = /SELFTEST (.*)/.exec(r.stdout ?? '');
    const res = m ? JSON.parse(m[1]) : { file: f, pass: false, error: `no result (status ${r.status}) ${String(r.stderr).slice(0, 200)}` };
    console.log(`${res.pass ? 'PASS' : 'FAIL'} ${process.version} ${f} ${JSON.stringify(res)}`);
  }
}
