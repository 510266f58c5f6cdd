/**
 * The example journal, written against Node's own APIs, under durasim as a user runs it: the
 * correct one is clean, its copy with one defect is caught, and a dependency that reads the clock
 * and sets timers itself runs in virtual time with no shim.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../src/arbitraries.js';
import { main } from '../../src/cli/main.js';
import { bundleJournal } from '../../src/isolation/bundleJournal.js';
import { compileJournal } from '../../src/isolation/journalInstances.js';
import { simulate } from '../../simulator/simulate.js';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-example-'));
const check = async (journal: string, ...args: string[]): Promise<{ code: number; out: string }> => {
  const out: string[] = [];
  // One worker: the verdict does not depend on the count, and on 2 cores under vitest's two forks a second one (300 runs would take two, and a finding is shrunk on every core) adds its boot and warm-up and takes no wall time off.
  const code = await main(['check', '--no-sweep', '--journal', journal, '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', ...args], (line) => out.push(line));
  return { code, out: out.join('\n') };
};

describe('examples/node-journal', () => {
  test('the defective copy differs from the journal by its one defect (and its name and warning) only', () => {
    const lines = (name: string): string[] => readFileSync(join(HERE, name), 'utf8').split('\n');
    const good = lines('journal.ts');
    const bad = lines('journal-unsynced.ts');
    const onlyGood = good.filter((line) => !bad.includes(line));
    const onlyBad = bad.filter((line) => !good.includes(line));
    expect(onlyGood).toEqual(['    await this.handle?.sync();', "  name: 'node-journal',"]);
    expect(good.filter((line) => line === '    await this.handle?.sync();')).toHaveLength(1);
    expect(bad.filter((line) => line === '    await this.handle?.sync();')).toHaveLength(0);
    expect(onlyBad[0]).toBe(' * DEFECTIVE COPY of journal.ts, for the example: Log.add appends each record and does not fsync it');
    expect(onlyBad.at(-1)).toBe("  name: 'node-journal-unsynced',");
    expect(onlyBad).toHaveLength(4);
  });

  test('the journal is clean under check (every fault family), with no escape', async () => {
    const { code, out } = await check(join(HERE, 'journal.ts'), '--runs', '300', '--seed', '11');
    expect(out).not.toContain('sandbox');
    // Its four real restarts (Node's own fs and http, for real) agree with the simulated ones.
    expect(out, out).toMatch(/^in real processes: both clean/m);
    expect(code).toBe(0);
  });

  test('its copy that appends without fsync is caught, and the counterexample names the lost bytes', async () => {
    const { code, out } = await check(join(HERE, 'journal-unsynced.ts'), '--runs', '300', '--seed', '11');
    expect(code).toBe(1);
    expect(out).toMatch(/write-ahead \[post-\w+\] at #\d+: expected durable authorized and dispatched .* \(only in the page cache: a machine crash here would lose journal\.jsonl: \d+ unsynced bytes lost — fsync the file\)/);
  });
});

describe('a dependency that reads the clock and sets timers itself', () => {
  const project = join(dir, 'project');
  mkdirSync(join(project, 'node_modules', 'backoff-lib'), { recursive: true });
  writeFileSync(join(project, 'node_modules', 'backoff-lib', 'package.json'), JSON.stringify({ name: 'backoff-lib', version: '1.0.0', main: 'index.js' }));
  writeFileSync(
    join(project, 'node_modules', 'backoff-lib', 'index.js'),
    `exports.loadedAt = Date.now();
exports.retry = async function retry(attempt, { attempts, delayMs }) {
  for (let i = 0; ; i++) {
    try { return await attempt(i); } catch (error) {
      if (i + 1 >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** i));
    }
  }
};
`,
  );
  const journalFile = join(project, 'journal.ts');
  writeFileSync(
    journalFile,
    `import { writeFile } from 'node:fs/promises';
import { loadedAt, retry } from 'backoff-lib';
export default {
  name: 'uses-backoff-lib',
  async run() {
    const value = await retry(async (i: number) => { if (i < 3) throw new Error('not yet'); return 'ready'; }, { attempts: 5, delayMs: 100 });
    await writeFile('out.txt', value + ' after ' + (Date.now() - loadedAt) + ' ms');
  },
  inspect: (disk: { readFile(path: string): string | undefined }) => {
    const text = disk.readFile('out.txt');
    return text === undefined ? {} : { out: { kind: 'operation', history: [], digest: text } };
  },
};
`,
  );

  test('its module is loaded afresh in every incarnation, and its clock and timers are the virtual ones', async () => {
    const instances = await compileJournal(await bundleJournal({ file: journalFile, spec: journalFile }), join(ROOT, 'src/index.ts'));
    // Killed after its first timer is set: the restarted process loads the library again, at the restart's virtual time.
    const scenario = { ...baseScenario([]), faults: [{ kind: 'crash' as const, process: 0, incarnation: 0, step: 0, when: 'after' as const, mode: 'keep-all' as const }] };
    const result = await simulate(instances.fresh(), scenario, { fresh: instances.fresh });
    expect(result.escapes).toEqual([]);
    expect(result.crashes).toHaveLength(1);
    expect(result.stats.virtualTimeMs).toBe(scenario.restartDelayMs + 100 + 200 + 400);
    expect(result.final.visible).toEqual({ out: { kind: 'operation', history: [], digest: 'ready after 700 ms' } });
    const steps = (incarnation: number): string[] => result.trace.filter((t) => t.actor === 'worker-0' && t.incarnation === incarnation && t.step !== undefined).map((t) => t.op);
    // Its clock read while the library loads is served (at the virtual time) but is no step (format 3).
    expect(steps(0)).toEqual(['setTimeout']);
    expect(steps(1)).toEqual(['setTimeout', 'setTimeout', 'setTimeout', 'Date.now', 'fs.promises.writeFile', 'fs.promises.writeFile', 'fs.promises.writeFile']);
    // A format-2 file replays as it ran: the read at load was a step then.
    const older = await simulate(instances.fresh(), { ...scenario, version: 2, faults: [{ ...scenario.faults[0], step: 1 }] }, { fresh: instances.fresh });
    expect(older.stats.virtualTimeMs).toBe(scenario.restartDelayMs + 100 + 200 + 400);
    expect(older.trace.filter((t) => t.actor === 'worker-0' && t.incarnation === 0 && t.step !== undefined).map((t) => t.op)).toEqual(['Date.now', 'setTimeout']);
  });

  test('under check, with crashes, it breaks no safety invariant and nothing escapes (it ignores the task, so only --safety-only makes sense)', async () => {
    const { code, out } = await check(journalFile, '--runs', '40', '--seed', '3', '--faults', 'crash', '--safety-only');
    expect(out).not.toContain('sandbox');
    expect(out.split('\n')[0]).toContain('· journal uses-backoff-lib (it reads the world as it loads: what it keeps is renewed at every incarnation, as every module is) ·');
    expect(code).toBe(0);
  });
});
