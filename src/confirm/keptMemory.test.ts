/**
 * A clean simulated verdict cross-checked by a real restart: a journal that keeps memory across a
 * crash where durasim's restore does not reach yet (fixtures/keptMemory.ts) is clean under
 * simulation, and `durasim confirm` on a scenario with one crash shows the worlds part at the
 * restarted process's first step that differs, and the violation real processes break; `check`
 * runs that restart itself on a clean verdict (src/runner/realRestart.ts; off with
 * --no-real-restart) and ends in a sandbox verdict, where a correct journal stays clean.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkJournal } from '../checkJournal.js';
import { main } from '../cli/main.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/keptMemory.ts');
/** One publish; the first process killed before its first step naming the key (after it has left its memory). */
const SCENARIO = { format: 'durasim.scenario', version: 3, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] }, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, when: 'before' }] };

/** The scenario's task alone (one publish), as check's --task: its real restart is short. */
function taskFile(dir: string): string {
  const file = join(dir, 'task.json');
  writeFileSync(file, JSON.stringify({ ...SCENARIO, faults: [] }));
  return file;
}

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, (line) => out.push(line));
  return { code, out: out.join('\n') };
}

/** check (its restarts on) of one of the fixture's journals, `exported`, on a task of two publishes: the second begins once the first was answered. */
async function checkTwoPublishes(name: string, exported: string): Promise<{ code: number; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), `durasim-kept-${name}-`));
  const journal = join(dir, `${name}.ts`);
  writeFileSync(journal, `export { ${exported} as default } from ${JSON.stringify(FIXTURE)};\n`);
  const task = join(dir, 'task.json');
  writeFileSync(task, JSON.stringify({ ...SCENARIO, task: { id: 'task-1', operations: [...SCENARIO.task.operations, { kind: 'publish', key: 'post-b', body: 'artifact b v1' }] }, faults: [] }));
  return { ...(await run('check', '--no-sweep', '--journal', journal, '--task', task, '--runs', '5', '--seed', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress')), dir };
}

describe('memory a simulated crash kept, shown by a real restart', () => {
  test.concurrent('check restarts a clean task for real: the journal that kept memory is a sandbox verdict (exit 4), saved, with confirm as its replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-check-'));
    const { code, out } = await run('check', '--no-sweep', '--journal', FIXTURE, '--task', taskFile(dir), '--runs', '5', '--seed', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out).toMatch(/^ {2}sandbox: a real restart parted from the simulated one \(the worlds part at worker step \d+: simulated worker-0#1 step \d+ [^)]*\): another violation — real processes broke write-ahead \[post-a\]/m);
    expect(out).toMatch(/Run the replay below to see both worlds step by step$/m);
    expect(out).toMatch(/^in real processes: another violation — /m);
    expect(out).toMatch(new RegExp(`^replay: npx durasim confirm ${join(dir, 'regressions').replaceAll('/', '\\/')}\\/kept-memory\\/[0-9a-f]+\\.json --journal `, 'm'));
    expect(code).toBe(4);
  });

  test.concurrent("check restarts late in the run: memory left only once the first request was answered is a sandbox verdict too (a restart before the task's first step missed it)", async () => {
    // Two publishes: the late restart's crash strikes as the second begins, the first answered (src/runner/realRestart.ts).
    const { code, out } = await checkTwoPublishes('late', 'lateJournal');
    // Late's parting is reported, or the chain's when late's real run went otherwise (a real run is timed by the machine): either names post-b.
    // Labelled "diverged" when the real calls changed the disk otherwise at a step both took alike: a parting all the same (it was exit 0 once).
    expect(out, out).toMatch(/^in real processes: (another violation — real processes broke [a-z-]+(, [a-z-]+)* \[post-b\]|diverged — .*real: [^)]*\[post-b\])/m);
    expect(code, out).toBe(4);
  });

  test.concurrent('check restarts in flight too: memory read only while recovering a request the crash left unanswered is a sandbox verdict (the early and late restarts never reach that path)', async () => {
    const { code, out, dir } = await checkTwoPublishes('in-flight', 'inFlightJournal');
    expect(out).toMatch(/^ {2}sandbox: a real restart parted from the simulated one/m);
    // The restart that parted is the one in flight: killed before the last step naming post-b, after its request.
    expect((JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { faults: unknown[] }).faults).toEqual([{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-b', occurrence: expect.any(Number) }, when: 'before', mode: 'keep-all' }]);
    expect(out).toMatch(/^in real processes: another violation — real processes broke [a-z-]+(, [a-z-]+)* \[post-b\]/m);
    expect(code).toBe(4);
  });

  test.concurrent('check restarts in flight a step earlier too: memory read only while recovering an edit cut short between moving the file aside and placing it is a sandbox verdict (the other restarts never reach that path)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-aside-'));
    const journal = join(dir, 'aside.ts');
    writeFileSync(journal, `export { asideJournal as default } from ${JSON.stringify(FIXTURE)};\n`);
    const task = join(dir, 'task.json');
    writeFileSync(task, JSON.stringify({ ...SCENARIO, task: { id: 'task-1', operations: [{ kind: 'edit', key: 'edit-notes', path: 'notes.md', append: '- agent: done\n' }] }, files: { 'notes.md': '# Notes\n' }, faults: [] }));
    const { code, out } = await run('check', '--no-sweep', '--journal', journal, '--task', task, '--runs', '5', '--seed', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out, out).toMatch(/^ {2}sandbox: a real restart parted from the simulated one/m);
    // The restart that parted is the one a step earlier: killed before the step that links the candidate in place (it names notes.md).
    expect((JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { faults: unknown[] }).faults, out).toEqual([{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'notes.md', occurrence: expect.any(Number) }, when: 'before', mode: 'keep-all' }]);
    expect(out).toMatch(/^in real processes: another violation — real processes broke [a-z-]+(, [a-z-]+)* \[notes\.md\]/m);
    expect(code).toBe(4);
  });

  test.concurrent('check restarts count what real processes leave unfinished too: memory read only by the cleanup, a staged file left for real, is a sandbox verdict (it was exit 0: no safety invariant breaks)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-staged-'));
    const journal = join(dir, 'staged.ts');
    writeFileSync(journal, `export { stagedJournal as default } from ${JSON.stringify(FIXTURE)};\n`);
    const task = join(dir, 'task.json');
    writeFileSync(task, JSON.stringify({ ...SCENARIO, task: { ...SCENARIO.task, temp: { dir: 'tmp', retentionMs: 1000 } }, faults: [] }));
    const { code, out } = await run('check', '--no-sweep', '--journal', journal, '--task', task, '--runs', '5', '--seed', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out, out).toMatch(/^ {2}sandbox: a real restart parted from the simulated one .*: not reproduced — real processes broke convergence \[[^\]]*\], the simulation did not\. /m);
    expect(out).toMatch(/^in real processes: not reproduced — real processes broke convergence /m);
    expect(code).toBe(4);
  });

  test.concurrent('check on a correct journal: the real restart is clean too, and so is the verdict (with --confirm as without)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-clean-'));
    const { code, out } = await run('check', '--no-sweep', '--task', taskFile(dir), '--runs', '5', '--seed', '1', '--confirm', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out).toMatch(/^in real processes: both clean$/m);
    expect(code).toBe(0);
  });

  test.concurrent("a clean explore restarts its base's task for real too: the journal that kept memory is a sandbox verdict there as well (exit 4), in coverage.json", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-explore-'));
    const base = join(dir, 'base.json');
    writeFileSync(base, JSON.stringify({ ...SCENARIO, faults: [] }));
    const { code, out } = await run('explore', base, '--journal', FIXTURE, '--max-runs', '40', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out).toMatch(/^sandbox: a real restart parted from the simulated one/m);
    expect(out).not.toMatch(/^verdict: clean/m);
    expect((JSON.parse(readFileSync(join(dir, 'report', 'coverage.json'), 'utf8')) as { realRestart?: { verdict: string } }).realRestart?.verdict).toBe('sandbox');
    expect(code).toBe(4);
  });

  test.concurrent('check --no-real-restart: the simulation alone, where the journal that kept memory is clean (why the restart is the default)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-norestart-'));
    const { code, out } = await run('check', '--no-sweep', '--journal', FIXTURE, '--task', taskFile(dir), '--runs', '5', '--seed', '1', '--no-real-restart', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect(out).not.toMatch(/in real processes/);
    expect(code).toBe(0);
  });

  test.concurrent('checkJournal() (the helper for your own tests) restarts a clean task for real as check does: the journal that kept memory fails it, saved, with confirm as its replay; realRestart: false passes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-helper-'));
    const task = parseScenario({ ...SCENARIO, faults: [] });
    const checked = checkJournal(FIXTURE, { task, runs: 5, seed: 1, workers: 1, regressionsDir: join(dir, 'regressions') });
    await expect(checked).rejects.toThrow(/^durasim found a failure in journal "kept-memory" \(seed 1: clean when simulated, not after a real restart\)\n {2}sandbox: a real restart parted from the simulated one \(the worlds part at worker step \d+: /);
    await expect(checked).rejects.toThrow(/^ {2}verdict: another violation — real processes broke write-ahead \[post-a\]/m);
    await expect(checked).rejects.toThrow(new RegExp(`\\nreplay: npx durasim confirm ${join(dir, 'regressions').replaceAll('/', '\\/')}\\/kept-memory\\/[0-9a-f]+\\.json --journal ${FIXTURE.replaceAll('/', '\\/').replaceAll('.', '\\.')}$`));
    expect(readdirSync(join(dir, 'regressions', 'kept-memory'))).toHaveLength(1);
    await expect(checkJournal(FIXTURE, { task, runs: 5, seed: 1, workers: 1, regressionsDir: join(dir, 'off'), realRestart: false })).resolves.toBeUndefined();
  });

  test('clean when simulated; real processes part from the simulation after the restart and break write-ahead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-kept-memory-'));
    const file = join(dir, 'crash.json');
    writeFileSync(file, JSON.stringify(SCENARIO));
    const replayed = await run('replay', file, '--journal', FIXTURE, '--report-dir', join(dir, 'report'));
    expect(replayed.out).toMatch(/^verdict: no violation$/m);
    expect(replayed.code).toBe(0);
    const confirmed = await run('confirm', file, '--journal', FIXTURE);
    expect(confirmed.out).toMatch(/^simulated: no violation$/m);
    expect(confirmed.out).toMatch(/^steps: the worlds part at worker step \d+: simulated worker-0#1 /m);
    expect(confirmed.out).toMatch(/^verdict: another violation — real processes broke write-ahead \[post-a\]/m);
    expect(confirmed.code).toBe(1);
  });
});
