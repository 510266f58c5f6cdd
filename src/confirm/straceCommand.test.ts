import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CHILD_HANG_GUARD_MS } from '../../properties/budgets.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** straceUnavailable() in a process of its own (it asks once per process), with `PATH` as given. */
function unavailable(path: string): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/confirm/straceCommand.ts').then((m) => console.log(m.straceUnavailable() ?? 'available'))"], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: path }, timeout: CHILD_HANG_GUARD_MS, killSignal: 'SIGKILL' });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('whether workers can run traced', () => {
  test('no strace on the PATH: not installed, by name', () => {
    expect(unavailable(mkdtempSync(join(tmpdir(), 'durasim-nopath-')))).toBe('strace is not installed (ENOENT)');
  });

  test('a strace that may not trace (a container without ptrace): its first line of complaint', () => {
    const bin = mkdtempSync(join(tmpdir(), 'durasim-fakestrace-'));
    writeFileSync(join(bin, 'strace'), '#!/bin/sh\necho "strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted" >&2\necho "second line" >&2\nexit 1\n');
    chmodSync(join(bin, 'strace'), 0o755);
    expect(unavailable(`${bin}:/usr/bin:/bin`)).toBe('strace cannot trace here: strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted');
  });

  test.skipIf(spawnSync('strace', ['-V']).error !== undefined)('the machine\'s strace: available', () => {
    expect(unavailable(process.env.PATH ?? '')).toBe('available');
  });
});
