/**
 * durasim confirm against real processes: every mutant whose stored counterexample needs only
 * process kills and response faults breaks the same invariant for real; reference seed scenarios
 * run clean, step for step as simulated; and what real processes cannot do is said, not faked.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli/main.js';
import { readScenarioFile } from '../cli/scenarioFile.js';
import { unconfirmable } from './unconfirmable.js';

const ROOT = resolve(import.meta.dirname, '../..');
const REGRESSIONS = join(ROOT, 'reports', 'regressions');

async function confirm(file: string, journal: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['confirm', file, '--journal', journal, ...args], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

/** Mutants whose committed counterexample real processes can run: process kills, machine crashes (built from the traced calls), response faults… (reference and coordinated hold must-pass scenarios, not findings) */
const confirmable = readdirSync(REGRESSIONS)
  .filter((name) => name !== 'reference' && name !== 'coordinated')
  .flatMap((name) => readdirSync(join(REGRESSIONS, name)).map((file) => ({ name, file: join(REGRESSIONS, name, file) })))
  .filter(({ file }) => unconfirmable(readScenarioFile(file, '')) === undefined);

describe('durasim confirm', () => {
  test('the corpus holds counterexamples real processes can run, from at least eight mutants, four of them with a machine crash or a durability finding', () => {
    expect(new Set(confirmable.map((c) => c.name)).size).toBeGreaterThanOrEqual(8);
    for (const name of ['no-fsync', 'deletion-not-synced', 'torn-tail-fatal', 'zero-tail-reset']) expect(confirmable.map((c) => c.name)).toContain(name);
  });

  // Concurrently: each real run mostly waits on real timers and its own processes, in its own folder.
  // The suite confirms two of the four named above: no-fsync (found fault-free) and zero-tail-reset (a machine crash that tears a
  // write); CI confirms them all (.ci/run: DURASIM_CONFIRM_ALL=1). A machine crash that loses unsynced data is confirmed in the
  // suite by confirmTraced.test.ts (a rename without a folder fsync).
  const REQUIRED = new Set(['no-fsync', 'zero-tail-reset']);
  const confirmedHere = process.env.DURASIM_CONFIRM_ALL === '1' ? confirmable : confirmable.filter((c) => REQUIRED.has(c.name));
  test.concurrent.each(confirmedHere.map((c) => [c.name, c.file] as const))('%s: its counterexample is confirmed in real processes', async (name, file) => {
    const { code, out } = await confirm(file, name);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes/m);
    expect([1, 3]).toContain(code);
  });

  test.each(['000-killed-branch', '000-receipt-body-cut', '000-user-edit-during-delivery', '002-kill-after-external-commit'])('reference seed %s runs clean in real processes, step for step as simulated', async (seed) => {
    const { code, out } = await confirm(join(ROOT, 'reports', 'seeds', `${seed}.json`), 'reference');
    expect(out).toMatch(/^steps: the real processes took the simulation's \d+ worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: both clean$/m);
    expect(code).toBe(0);
  });

  test('check --confirm runs the shrunk counterexample in real processes and says so, on screen and in the reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-'));
    const out: string[] = [];
    const code = await main(['check', '--no-sweep', '--journal', 'trust-any-receipt', '--runs', '300', '--seed', '3', '--confirm', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'], (line) => out.push(line));
    expect(code).toBe(1);
    expect(out).toContain('in real processes: confirmed — the same violations in real processes');
    expect(readFileSync(join(dir, 'report', 'report.md'), 'utf8')).toMatch(/## In real processes\n\n\*\*confirmed\*\*\n\n- simulated: truthful-outcome \[post-a\]\n- real \(\d+ ms, \d+ worker steps, \d+ system calls on the work folder traced\): truthful-outcome \[post-a\]/);
    expect((JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { confirmation?: { verdict: string } }).confirmation?.verdict).toBe('confirmed');
  });

  test('what real processes cannot do is said, exit 2: an I/O error, a machine crash without strace', async () => {
    const io = await confirm(join(REGRESSIONS, 'short-write-ignored', readdirSync(join(REGRESSIONS, 'short-write-ignored'))[0] as string), 'short-write-ignored');
    expect(io.out).toMatch(/^cannot confirm: faults\[0\] is an I\/O error \(EIO\): a real disk cannot be made to fail on cue\.$/m);
    expect(io.code).toBe(2);
    const torn = readScenarioFile(join(REGRESSIONS, 'torn-tail-fatal', readdirSync(join(REGRESSIONS, 'torn-tail-fatal'))[0] as string), '');
    expect(unconfirmable(torn, 'strace is not installed (ENOENT)')).toBe('faults[0] is a machine crash (torn-tail), which is built from the workers\' real system calls, and strace is not installed (ENOENT). Install strace (Debian: apt-get install strace)');
    expect(unconfirmable(torn, undefined)).toBeUndefined();
    // A worker back a day after its kill (the crash family's long outage): real processes restart at once, on the machine's clock.
    const kill = { ...torn, faults: [{ kind: 'crash' as const, process: 0, incarnation: 0, step: 3, when: 'after' as const, mode: 'keep-all' as const }] };
    expect(unconfirmable({ ...kill, restartDelayMs: 86_401_000 }, undefined)).toBe('its workers restart 86401000 ms after a crash (restartDelayMs: a long outage), and real processes restart at once, on the machine\'s clock');
    expect(unconfirmable({ ...kill, restartDelayMs: 60_000 }, undefined)).toBeUndefined();
    expect(unconfirmable({ ...kill, faults: [], restartDelayMs: 86_401_000 }, undefined)).toBeUndefined();
  });

  /** A journal that behaves well in one world and badly in the other: it tells them apart by the clock (durasim's virtual one starts at 2026-01-01). */
  const twoFaced = (dir: string, name: string, wellWhen: 'simulated' | 'real'): string => {
    const journal = join(dir, `${name}.ts`);
    writeFileSync(journal, `import { writeFile } from 'node:fs/promises';
export default {
  name: '${name}',
  async run(env, task) {
    const simulated = Date.now() < 1_767_225_600_000 + 86_400_000;
    if (simulated === ${wellWhen === 'simulated'}) {
      for (const op of task.operations) if (op.kind === 'lookup') await writeFile('log', JSON.stringify({ key: op.key, states: ['authorized', 'dispatched', 'failed'] }));
      return;
    }
    await fetch(task.service.url + '/operations/post-a', { method: 'POST', body: 'other body' });
  },
  inspect(disk) {
    const text = disk.readFile('log');
    const entry = text ? JSON.parse(text) : undefined;
    return entry ? { [entry.key]: { kind: 'operation', history: entry.states } } : {};
  },
};
`);
    return journal;
  };
  const lookupScenario = (dir: string): string => {
    const scenario = join(dir, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'lookup', key: 'read-config', resource: 'config' }] }, service: { resources: { config: 'v1' } } }));
    return scenario;
  };

  test('a journal clean when simulated that breaks safety invariants for real: "another violation" (exit 1), never a silent "not reproduced"; the first parting step is shown; nothing is left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-'));
    const journal = twoFaced(dir, 'two-faced', 'simulated');
    const scenario = lookupScenario(dir);
    // Its temporary folders go into a folder of this test's own (other test files confirm at the same time).
    const own = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-tmp-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = own;
    let result: { code: number; out: string };
    try {
      result = await confirm(scenario, journal);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    const { code, out } = result;
    expect(out).toMatch(/^verdict: another violation — real processes broke write-ahead \[post-a\], no-blind-retry \[post-a\], which is neither what the simulation found \(no violation\) nor a consequence of it: a finding of its own$/m);
    expect(out).toMatch(/^ {2}no-blind-retry \[post-a\] at #\d+: expected writes only under the keys the task gave/m);
    expect(out).toMatch(/^steps: the worlds part at worker step 1: simulated worker-0#0 step 1 fs\.promises\.writeFile \| real worker-0#0 step 1 fetch$/m);
    expect(code).toBe(1);
    expect(readdirSync(own).filter((name) => name.startsWith('durasim'))).toEqual([]); // (tsx, loading the sources in the workers, keeps its cache there)
  });

  test('a journal that breaks invariants when simulated and runs clean for real is not reproduced (exit 4), the parting step shown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-'));
    const { code, out } = await confirm(lookupScenario(dir), twoFaced(dir, 'two-faced-the-other-way', 'real'));
    expect(out).toMatch(/^simulated: write-ahead \[post-a\], no-blind-retry \[post-a\], convergence \[read-config\]$/m);
    expect(out).toMatch(/^verdict: not reproduced — write-ahead \[post-a\], no-blind-retry \[post-a\], convergence \[read-config\] did not happen for real$/m);
    expect(out).toMatch(/^steps: the worlds part at worker step 1: simulated worker-0#0 step 1 fetch \| real worker-0#0 step 1 fs\.promises\.writeFile$/m);
    expect(code).toBe(4);
  });
});
