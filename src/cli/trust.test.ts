/**
 * Verdicts a user can trust from the command line: a journal that blocks or eats memory ends in
 * seconds with exit 3 and a saved scenario; output problems are found before the first run (exit
 * 2, nothing written); bad seeds, summaries, regression files and scenario fields are refused with
 * the house style; and durasim's own failure is exit 5, never a finding.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
const fixture = (name: string): string => join(ROOT, 'src/pool/fixtures', `${name}.ts`);
let dir = '';
let out: string[] = [];
let err: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-trust-'));
  out = [];
  err = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DURASIM_FAILPOINT;
});

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
// One worker: what these tests check does not depend on the count, and each worker costs a start-up.
// Without a clean verdict's real restarts (each costs real processes; keptMemory.test and realRestart.test are theirs), but
// where a journal keeps module memory that is no defect: its restarts must stay clean too.
const outputs = (restart: 'restart' | 'no-restart' = 'no-restart') => ['--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', ...(restart === 'restart' ? [] : ['--no-real-restart'])];

describe('a journal that keeps its memory on durasim\'s exports', () => {
  // The module-memory fixture's Set ("the keys this process sent", so that after a crash it re-sends without asking), kept on an
  // exported function of durasim's instead of in its own module: that outlived every incarnation of the thread, and the journal
  // was judged clean over 1,000 runs (and by the default check) while its twin was found at run 11.
  const journal = (holder: string): string => {
    const file = join(dir, `memory-on-${holder === '{}' ? 'its-own' : 'durasim'}.ts`);
    writeFileSync(file, `import { digestOf } from 'durasim';
import type { PublishOperation } from ${JSON.stringify(join(ROOT, 'model/contract/contract.ts'))};
import { journalFrom, ReferenceRun, type Intent, type Verdict } from ${JSON.stringify(join(ROOT, 'src/journals/reference.ts'))};
void digestOf;
const holder = ${holder} as { sent?: Set<string> };
const sent = (holder.sent ??= new Set<string>());
class KeepsMemory extends ReferenceRun {
  protected override async dispatch(op: PublishOperation, intent: Intent): Promise<Verdict> {
    sent.add(op.key);
    return super.dispatch(op, intent);
  }
  protected override async deliver(op: PublishOperation, intent: Intent, start: 'send' | 'reconcile'): Promise<void> {
    return super.deliver(op, intent, start === 'reconcile' && !sent.has(op.key) ? 'send' : start);
  }
}
export const journal = journalFrom('keeps-memory', (env, task) => new KeepsMemory(env, task));
`);
    return file;
  };

  test('loses it in a crash, as its own module memory: found as its twin is', async () => {
    const check = (file: string, name: string) => run('check', '--no-sweep', '--journal', file, '--runs', '100', '--seed', '1', '--workers', '1', '--report-dir', join(dir, name), '--regressions', join(dir, `${name}-regressions`), '--no-progress');
    expect(await check(journal('{}'), 'own')).toBe(1);
    const twin = out.find((line) => /^\d+ runs? in /.test(line));
    out = [];
    expect(await check(journal('digestOf as unknown'), 'durasim')).toBe(1);
    expect(out.find((line) => /^\d+ runs? in /.test(line))?.replace(/ in .*:/, ':')).toBe(twin?.replace(/ in .*:/, ':'));
  });
});

describe('a journal that would hang or exhaust durasim', () => {
  test('an endless loop ends with exit 3, a saved scenario, and a replay that says the same (a hang would meet the test\'s hang guard)', async () => {
    expect(await run('check', '--no-sweep', '--journal', fixture('blocksSync'), '--runs', '50', '--seed', '1', '--hang-timeout', '1s', ...outputs())).toBe(3);
    expect(out.join('\n')).toMatch(/journal-blocked: the journal's code kept the thread worker-0#0 after global step 2 \(fs\.writeFile\) for 1 s of its CPU time/);
    expect(out.join('\n')).toContain('not shrunk: every attempt would cost the hang timeout or a worker');
    expect(existsSync(join(dir, 'report', 'counterexample.json'))).toBe(true);
    expect(readdirSync(join(dir, 'regressions', 'blocks-sync'))).toHaveLength(1);
    out = [];
    expect(await run('replay', join(dir, 'report', 'counterexample.json'), '--journal', fixture('blocksSync'), '--hang-timeout', '500ms')).toBe(3);
    expect(out.join('\n')).toContain('journal-blocked');
  });

  test('memory kept per step ends with exit 3 and a saved scenario', async () => {
    expect(await run('check', '--no-sweep', '--journal', fixture('buffersPerStep'), '--runs', '50', '--seed', '1', ...outputs())).toBe(3);
    expect(out.join('\n')).toMatch(/journal-out-of-memory: the journal held \d+ MB \(heap and buffers\) at global step \d+, over the 512 MB limit \(--max-heap\)/);
    expect(existsSync(join(dir, 'report', 'counterexample.json'))).toBe(true);
  });
});

describe('a module that escapes while it loads', () => {
  test('is exit 4, said before any run', async () => {
    const file = join(dir, 'loads-the-disk.ts');
    writeFileSync(file, "import { readFileSync } from 'node:fs';\nconst config = readFileSync('/etc/hostname', 'utf8');\nexport default { name: 'loads-the-disk', async run(env) { await env.clock.now(); }, inspect: () => ({ config }) };\n");
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', ...outputs())).toBe(4);
    expect(out).toContain("sandbox: the journal's module, at load: it called fs.readFileSync while its module loaded, which would touch the real disk: the simulated disk exists only inside run() (fs.readFileSync). Do file I/O inside run(), where durasim serves node:fs on its simulated disk.");
  });

  test('with --json, stdout is one JSON document (the verdict, the exit code, the message) and the text goes to stderr', async () => {
    const file = join(dir, 'loads-the-network.ts');
    writeFileSync(file, "import { createConnection } from 'node:net';\ncreateConnection({ port: 9 });\nexport default { name: 'loads-the-network', async run(env) { await env.clock.now(); }, inspect: () => ({}) };\n");
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', '--json', ...outputs())).toBe(4);
    expect(out).toHaveLength(1);
    const message = "sandbox: the journal's module, at load: it called net.createConnection, which would reach the real network (net.createConnection). Call fetch(url, init) or env.fetch(url, init): under simulation the only network is the fake service.";
    expect(JSON.parse(out[0] as string)).toEqual({ command: 'check', verdict: 'sandbox', exitCode: 4, message });
    expect(err.join('')).toContain(message);
  });
});

describe('what a killed check left behind', () => {
  test('the next check removes it: a regression being saved, a report being written, a writability probe', async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const left = [join(dir, 'regressions', 'reference', `.0123abcd.json.durasim-${dead}-0.tmp`), join(dir, 'report', `.summary.json.durasim-${dead}-4.tmp`), join(dir, 'report', `.durasim-probe-${dead}`)];
    for (const file of left) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{"half": ');
    }
    expect(await run('check', '--no-sweep', '--runs', '5', '--seed', '1', ...outputs())).toBe(0);
    for (const file of left) expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(dir, 'regressions', 'reference'))).toEqual([]);
  });
});

describe('check --json in every outcome', () => {
  test('bad usage is a JSON document too (verdict usage, exit 2)', async () => {
    expect(await run('check', '--no-sweep', '--runs', 'x', '--json')).toBe(2);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0] as string)).toEqual({ command: 'check', verdict: 'usage', exitCode: 2, message: 'Failed to read the command line: --runs must be a whole number, found "x". Pass e.g. --runs 500.' });
  });

  test("durasim's own failure is a JSON document too (verdict harness, exit 5)", async () => {
    process.env.DURASIM_FAILPOINT = 'simulator-invariant';
    expect(await run('check', '--no-sweep', '--runs', '3', '--seed', '1', '--json', ...outputs())).toBe(5);
    expect(out).toHaveLength(1);
    const doc = JSON.parse(out[0] as string) as { message: string };
    expect(doc).toMatchObject({ command: 'check', verdict: 'harness', exitCode: 5 });
    expect(doc.message).toContain('Failed to finish: durasim itself failed (not a finding about the journal): SimulatorInvariantError');
  });
});

describe("a journal's console output", () => {
  test('shows in the replay and in report.md, under its process; a logged stack names the source file as the journal sees it (/journal/…)', async () => {
    const file = join(ROOT, 'properties/fixtures/logsJournal.ts');
    // It records nothing: convergence fails on the fault-free run, with its output in the report.
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '3', '--seed', '1', ...outputs())).toBe(3);
    const report = readFileSync(join(dir, 'report', 'report.md'), 'utf8');
    expect(report).toMatch(/worker-0#0 stdout starting the task\n/);
    expect(report).toMatch(/worker-0#0 stderr Error: not the end of the world\n\s+at Object\.run \(([^)]+)\)/);
    expect(/at Object\.run \(([^)]+)\)/.exec(report)?.[1]).toBe('/journal/logsJournal.ts:12:19');
    expect(report).not.toMatch(/node:internal|graph-[0-9a-f]+\.mjs/);
    expect(readFileSync(join(dir, 'report', 'timeline.html'), 'utf8')).toContain('starting the task');
    out = [];
    expect(await run('replay', join(dir, 'report', 'counterexample.json'), '--journal', file, '--workers', '1')).toBe(3);
    expect(out.join('\n')).toContain('worker-0#0 stdout starting the task');
  });

  test('check --verbose prints each run\'s output on stderr as the run comes back, the run named first', async () => {
    const file = join(ROOT, 'properties/fixtures/logsJournal.ts');
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '3', '--seed', '1', '--verbose', ...outputs())).toBe(3);
    const printed = err.join('');
    expect(printed).toMatch(/^run 0 │ +1 +0ms worker-0#0 stdout starting the task$/m);
    expect(printed).toMatch(/^run 0 │ +2 +0ms worker-0#0 stderr Error: not the end of the world\n +at Object\.run \(\/journal\/logsJournal\.ts:12:19\)$/m);
    err = [];
    // The saved counterexample is replayed first on the next check: its output is named by its file.
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '3', '--seed', '1', '--verbose', ...outputs())).toBe(3);
    expect(err.join('')).toMatch(/^regression \S+\.json │ +1 +0ms worker-0#0 stdout starting the task$/m);
    err = [];
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '3', '--seed', '2', ...outputs())).toBe(3);
    expect(err.join('')).not.toContain('starting the task');
  });
});

describe("a journal's own errors", () => {
  test('a TypeError in the first incarnation of a fault-free run is a finding (journal-error, exit 3), with its stack at its place in the source', async () => {
    const file = join(dir, 'parsesNothing.ts');
    writeFileSync(file, `import { writeFile } from 'node:fs/promises';

function parse(text: string | undefined): { count: number } {
  return JSON.parse(text as string) as { count: number };
}

export default {
  name: 'parses-nothing',
  async run(_env: unknown, task: { operations: unknown[] }) {
    const state = parse(undefined);
    await writeFile('count.txt', String(state.count + task.operations.length));
  },
  inspect: () => ({}),
};
`);
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '20', '--seed', '1', ...outputs())).toBe(3);
    const printed = out.join('\n');
    expect(printed).toMatch(/ {2}journal-error at #\d+: expected no incarnation ends by an error of its own before any fault was injected; actual worker-0#0 ended with SyntaxError: "undefined" is not valid JSON before any fault happened in the run/);
    expect(printed).toContain(`    at parse (${file}:4:15)`);
    expect(printed).toContain(`    at Object.run (${file}:10:19)`);
    expect(printed).not.toMatch(/graph-[0-9a-f]+\.mjs|node:internal/);
    expect(readFileSync(join(dir, 'report', 'report.md'), 'utf8')).toContain(`at parse (${file}:4:15)`);
  });
});

describe('module memory', () => {
  test('a module cache is no finding: one scenario\'s module memory never reaches the next (exit 0)', async () => {
    // One worker thread runs many scenarios; every incarnation loads the modules afresh, as a process does.
    expect(await run('check', '--no-sweep', '--journal', fixture('moduleCache'), '--runs', '300', '--seed', '4', '--faults', 'response,duplicate', ...outputs('restart'))).toBe(0);
    expect(out.join('\n')).toMatch(/re-run \d+ for determinism/);
    // Its restarts in real processes, where the cache dies with the process, stay clean too.
    expect(out).toContain('in real processes: both clean');
  });

  test('a journal that trusts module memory across a crash is caught by what it then does, as in production (every incarnation loads its modules afresh): exit 1, saved, and it fails again from the corpus', async () => {
    expect(await run('check', '--no-sweep', '--journal', fixture('moduleMemory'), '--runs', '1000', '--seed', '3', ...outputs())).toBe(1);
    // Its memory of "sent by this process" is gone after the crash, so it re-sends without asking.
    expect(out.join('\n')).toMatch(/ {2}retry-safe-only \[post-a\] at #\d+: expected after crash 1 left post-a dispatched, a query for the key before any re-send, or blocked; actual request #\d+ from worker-0#1, which started after that crash, (re-)?sent it without asking the service/);
    expect(readdirSync(join(dir, 'regressions', 'module-memory'))).toHaveLength(1);
    out = [];
    expect(await run('check', '--no-sweep', '--journal', fixture('moduleMemory'), '--runs', '1', '--seed', '99', ...outputs())).toBe(1);
    expect(out.join('\n')).toMatch(/stored regression .+\.json fails again/);
    // Counted apart from the seed's generated runs: it failed first, so no generated run was made.
    expect(out.join('\n')).toMatch(/^0 generated runs and 1 stored regression in /m);
    // With --shard, each shard replays its own share of the stored regressions: here the first shard has the one.
    out = [];
    await run('check', '--no-sweep', '--journal', fixture('moduleMemory'), '--runs', '2', '--seed', '99', '--shard', '2/2', ...outputs());
    expect(out.join('\n')).not.toMatch(/stored regression/);
    out = [];
    await run('check', '--no-sweep', '--journal', fixture('moduleMemory'), '--runs', '2', '--seed', '99', '--shard', '1/2', ...outputs());
    expect(out.join('\n')).toMatch(/^1 stored regression replayed first$/m);
  });
});

describe('output problems are found before the first run: exit 2, nothing written', () => {
  test('a report folder that is a file', async () => {
    writeFileSync(join(dir, 'taken'), 'a file');
    expect(await run('check', '--no-sweep', '--runs', '5', '--report-dir', join(dir, 'taken'), '--regressions', join(dir, 'regressions'), '--no-progress')).toBe(2);
    expect(err.join('')).toBe(`Failed to prepare the outputs: --report-dir ${join(dir, 'taken')} cannot be a folder: ${join(dir, 'taken')} is a file. Pass a folder path for --report-dir.\n`);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  test('a JUnit file under a file', async () => {
    writeFileSync(join(dir, 'taken'), 'a file');
    expect(await run('check', '--no-sweep', '--runs', '5', '--junit', join(dir, 'taken', 'junit.xml'), ...outputs())).toBe(2);
    expect(err.join('')).toBe(`Failed to prepare the outputs: --junit ${join(dir, 'taken', 'junit.xml')} is in ${join(dir, 'taken')}, which is a file. Pass a path in a folder.\n`);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  test('a JUnit file in folders that do not exist yet is written there, the folders made (a fresh CI runner)', async () => {
    expect(await run('check', '--no-sweep', '--runs', '5', '--junit', join(dir, 'out', 'shards', '1.xml'), ...outputs())).toBe(0);
    expect(readFileSync(join(dir, 'out', 'shards', '1.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  test('a regression folder that is a file', async () => {
    writeFileSync(join(dir, 'regressions'), 'a file');
    expect(await run('check', '--no-sweep', '--runs', '5', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress')).toBe(2);
    expect(err.join('')).toContain('Failed to prepare the outputs: --regressions');
    expect(readdirSync(dir)).toEqual(['regressions']);
  });
});

describe('bad input is refused, never reinterpreted', () => {
  test('a seed outside [0, 2^32) is refused, not wrapped', async () => {
    expect(await run('check', '--no-sweep', '--seed', '4294967296', ...outputs())).toBe(2);
    expect(err.join('')).toBe('Failed to read the command line: --seed must be a whole number from 0 to 4294967295, found "4294967296". Pass the seed a run printed first, e.g. --seed 42.\n');
  });

  test('a malformed summary given to merge is named', async () => {
    const file = join(dir, 'summary.json');
    writeFileSync(file, JSON.stringify({ journal: 'x', runsExecuted: 'many' }));
    expect(await run('merge', file)).toBe(2);
    expect(err.join('')).toBe(`Failed to merge summaries: ${file} is not a durasim summary: it has no "runsExecuted" or "elapsedMs" count. Pass the summary.json files that durasim check wrote.\n`);
  });

  test('a corrupt regression file is named', async () => {
    mkdirSync(join(dir, 'regressions', 'reference'), { recursive: true });
    writeFileSync(join(dir, 'regressions', 'reference', 'bad.json'), '{ "format": "durasim.scenario", ');
    expect(await run('check', '--no-sweep', '--runs', '5', ...outputs())).toBe(2);
    expect(err.join('')).toMatch(new RegExp(`^Failed to load the regression corpus: ${join(dir, 'regressions', 'reference', 'bad.json')} is not a valid scenario \\(the file is not valid JSON .+\\)\\. Fix or delete the file, or pass another folder with --regressions\\.\\n$`));
  });

  test('an unknown scenario field is refused with its path and a suggestion', async () => {
    const file = join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] }, faults: [{ fault: 'crash', process: 0, step: 1, when: 'before' }] }));
    expect(await run('replay', file)).toBe(2);
    expect(err.join('')).toBe('Failed to load scenario: faults[0].fault is not a known field. Did you mean "kind"?\n');
  });
});

describe("durasim's own failure", () => {
  test('is exit 5 with the scenario saved to report, never exit 1', async () => {
    process.env.DURASIM_FAILPOINT = 'simulator-invariant';
    expect(await run('check', '--no-sweep', '--runs', '5', '--seed', '1', ...outputs())).toBe(5);
    const file = join(dir, 'report', 'harness-failure.json');
    expect(out.at(-1)).toBe(`Failed to finish: durasim itself failed (not a finding about the journal): SimulatorInvariantError: durasim internal invariant broken: the DURASIM_FAILPOINT test failpoint is set. Please report it with this scenario: ${file}.`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'durasim.scenario' });
  });
});

describe("a pool worker that cannot boot (durasim's own failure, its fix said)", () => {
  test('ends check with exit 5, naming the boot file and what it threw, and the fix; it never hangs', async () => {
    process.env.DURASIM_FAILPOINT = 'pool-boot';
    expect(await run('check', '--no-sweep', '--runs', '5', '--seed', '1', ...outputs())).toBe(5);
    const boot = join(ROOT, 'src', 'pool', 'poolBoot.mjs');
    expect(err.join('')).toBe(`Failed to start a worker thread of durasim's pool: its boot (${boot}) threw Error: the DURASIM_FAILPOINT test failpoint is set (pool-boot). Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran.\n`);
  });
});

describe("an inspect() answer the judge cannot read is the adapter's bad input", () => {
  const problem = 'the record of "edit-notes" has the path "": a file record names the file it edits, relative to the work folder';
  const fix = "Return per key { kind: 'operation' | 'file', a state or history of the states docs/invariants.md lists, a file's path relative to the work folder } (docs/adapters.md)";

  test('check exits 2 naming the record, never judging it; the replay it prints says the same; explore too', async () => {
    const journal = fixture('fileRecordWithoutPath');
    const report = join(dir, 'report');
    expect(await main(['check', '--no-sweep', '--journal', journal, '--runs', '20', '--seed', '3', '--report-dir', report, '--regressions', join(dir, 'reg'), '--no-progress'], (line) => out.push(line))).toBe(2);
    const replay = `npx durasim replay ${join(report, 'counterexample.json')} --journal ${journal}`;
    expect(out.at(-1)).toBe(`Failed to read the journal's records: inspect() answered, in run 0 of seed 3: ${problem}. ${fix}; ${replay} shows the run.`);
    expect(existsSync(join(dir, 'reg'))).toBe(false); // not a finding: nothing enters the regression corpus
    out = [];
    expect(await main(replay.replace('npx durasim ', '').split(' '), (line) => out.push(line))).toBe(2);
    expect(out.at(-1)).toBe(`Failed to read the journal's records: inspect() answered, in the run of ${join(report, 'counterexample.json')}: ${problem}. ${fix}.`);
    out = [];
    expect(await main(['explore', '--journal', journal, '--faults', 'crash', '--report-dir', join(dir, 'explore'), '--regressions', join(dir, 'reg'), '--no-progress'], (line) => out.push(line))).toBe(2);
    expect(out.at(-1)).toMatch(/^Failed to read the journal's records: inspect\(\) answered, in the base run: the record of "edit-notes" has the path ""/);
  });
});
