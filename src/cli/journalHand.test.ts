/**
 * durasim never dies, and never blames itself, by the journal's hand (issue 49 item 6): the
 * journals that did it — a message forged on the port the worker's stdio writes through (the main
 * thread's assertion ended the check), one on worker_threads' parentPort (read as durasim's own
 * failure, exit 5), a WASI module that closes fd 0 (libuv's assertion: SIGABRT, exit 134, no
 * report) — run by the CLI in a process of its own, each end as a verdict about the journal.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-hand-'));

/** A journal whose run() does `code` after its first step. */
function journal(name: string, code: string, header = ''): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `${header}
export default {
  name: '${name}',
  async run(env) {
    await env.clock.now();
    ${code}
    await env.fs.writeFile('done.txt', 'x');
  },
  inspect() { return {}; },
};
`);
  return file;
}

/** wasm: _start calls WASI's fd_close(0). */
const WASM_CLOSES_STDIN = `const name = Buffer.from('wasi_snapshot_preview1'), fn = Buffer.from('fd_close');
const bytes = Buffer.concat([
  Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
  Buffer.from([0x01, 0x09, 0x02, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x60, 0x00, 0x00]),
  Buffer.from([0x02, 0x23, 0x01, name.length]), name, Buffer.from([fn.length]), fn, Buffer.from([0x00, 0x00]),
  Buffer.from([0x03, 0x02, 0x01, 0x01]),
  Buffer.from([0x05, 0x03, 0x01, 0x00, 0x01]),
  Buffer.from([0x07, 0x13, 0x02, 0x06]), Buffer.from('memory'), Buffer.from([0x02, 0x00, 0x06]), Buffer.from('_start'), Buffer.from([0x00, 0x01]),
  Buffer.from([0x0a, 0x09, 0x01, 0x07, 0x00, 0x41, 0x00, 0x10, 0x00, 0x1a, 0x0b]),
]);`;

function check(file: string): { status: number | null; signal: NodeJS.Signals | null; out: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/durasim.mjs'), 'check', '--no-sweep', '--journal', file, '--runs', '3', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, signal: run.signal, out: `${run.stdout}${run.stderr}` };
}

describe("durasim never dies by the journal's hand", () => {
  test("the port the worker's stdio writes through is out of the journal's reach: its process.stdout is its own, even as its module loads", () => {
    const run = check(journal('stdio-port', "loaded[Object.getOwnPropertySymbols(loaded).find((s) => s.description === 'kPort')].postMessage({ type: 'forged' });", 'const loaded = process.stdout;'));
    expect(run.signal).toBeNull();
    expect(run.out).not.toContain('durasim itself failed');
    expect(run.out).toContain("TypeError: Cannot read properties of undefined (reading 'postMessage')");
    expect(run.status).toBe(3);
  });

  test("a forged message on worker_threads' parentPort reaches nothing: a simulated process is its own main thread, so the journal fails as one would", () => {
    const run = check(journal('parent-port', "parentPort.postMessage({ type: 'harness-error', id: 0, message: 'forged' });", "import { parentPort } from 'node:worker_threads';"));
    expect(run.out).not.toContain('durasim itself failed');
    expect(run.out).toContain("TypeError: Cannot read properties of null (reading 'postMessage')");
    expect(run.status).toBe(3);
  });

  test('a WASI module that closes fd 0 is refused before it runs: no abort', () => {
    const run = check(journal('wasi-stdin', "const wasi = new WASI({ version: 'preview1' }); const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject()); wasi.start(instance);", `import { WASI } from 'node:wasi';\n${WASM_CLOSES_STDIN}`));
    expect(run.signal).toBeNull();
    expect(run.out).toContain('it called wasi.WASI, which runs code outside the sandbox.');
    expect(run.status).toBe(4);
  });
});
