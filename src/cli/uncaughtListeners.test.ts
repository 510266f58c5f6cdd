/**
 * A simulated process's own 'uncaughtException' and 'unhandledRejection' listeners take what its
 * code leaves uncaught, as Node's do: the process lives on and the run is judged as it ends; a
 * listener that throws ends the process (a journal error); with none, the error ends it, as before.
 * Before, every such error ended the incarnation, listeners or not: a worker that logs and goes on
 * was reported as a journal error (attack probes outside-call/uncaught-exception-handler and
 * unhandled-rejection-handler).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CHILD_HANG_GUARD_MS } from '../../properties/budgets.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-uncaught-'));

/** A journal that installs `listen`, lets `fail` go uncaught, and does no work of its task (its runs end in convergence, a liveness finding that says nothing of the error: only journal-error does). */
function journal(name: string, listen: string, fail: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `let seen = [];
export default {
  name: '${name}',
  async run(env) {
    seen = [];
    ${listen}
    ${fail}
    await env.clock.sleep(50);
    await env.fs.writeFile('seen.txt', seen.join(','));
  },
  inspect() { return {}; },
};
`);
  return file;
}

function check(file: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/durasim.mjs'), 'check', '--no-sweep', '--journal', file, '--operations', 'lookup', '--runs', '3', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')], { cwd: dir, encoding: 'utf8', timeout: CHILD_HANG_GUARD_MS });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const THROW_IN_TIMER = "setTimeout(() => { throw new Error('boom'); }, 1);";
const REJECT = "Promise.reject(new Error('nope'));";

describe("a simulated process's own listeners for what its code leaves uncaught", () => {
  test.each([
    ['uncaughtException takes a throw in a timer', "process.on('uncaughtException', (e, origin) => { seen.push(origin); });", THROW_IN_TIMER],
    ['unhandledRejection takes a rejection', "process.on('unhandledRejection', (reason) => { seen.push(reason.message); });", REJECT],
    ['uncaughtException takes a rejection when no unhandledRejection listener is there', "process.on('uncaughtException', (e, origin) => { seen.push(origin); });", REJECT],
  ])('%s: the process lives on, no journal error', (_what, listen, fail) => {
    const run = check(journal(`takes-${_what.split(' ')[0]}-${fail === REJECT ? 'rejection' : 'throw'}`, listen, fail));
    expect(run.out, run.out).not.toMatch(/^ {2}journal-error/m);
    expect(run.out).not.toContain('unhandled:');
    expect(run.out).toMatch(/^ {2}convergence \[read-config\]/m);
  });

  test("a listener that throws ends the process: a journal error, named", () => {
    const run = check(journal('listener-throws', "process.on('uncaughtException', () => { throw new Error('again'); });", THROW_IN_TIMER));
    expect(run.out).toMatch(/journal-error .*unhandled: Error: again \(thrown by its 'uncaughtException' listener\)/);
  });

  test('with no listener the error ends the process, as before', () => {
    const run = check(journal('no-listener', '', THROW_IN_TIMER));
    expect(run.out).toMatch(/journal-error .*unhandled: Error: boom/);
  });
});
