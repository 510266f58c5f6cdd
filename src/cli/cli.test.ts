import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir = '';
let out: string[] = [];
let err: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-cli-'));
  out = [];
  err = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
const report = (name: string) => join(dir, 'report', name);
// One worker: what these tests check does not depend on the count (the tally test and workerPool.test compare counts), and each worker costs a start-up.
// A clean check's real restarts (its default) only where a test is about them: the clean check below, and --invariants
// and --safety-only, where the restarts once misread a left-out invariant as a parting. Each costs real processes, and the
// rest restart the same task of the same journals again (keptMemory.test and realRestart.test are the restart's own).
const common = (restart: 'restart' | 'no-restart' = 'no-restart') => ['--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', ...(restart === 'restart' ? [] : ['--no-real-restart'])];

describe('durasim check', () => {
  test('a journal that persists the access token is caught, and nothing durasim prints or writes holds the token', async () => {
    expect(await run('check', '--no-sweep', '--journal', 'token-in-checkpoint', '--runs', '50', '--seed', '5', ...common())).toBe(1);
    expect(out.join('\n')).toMatch(/no-secret-persisted \[journal\.jsonl\] at #\d+: expected the task's access token kept in memory/);
    const written = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    expect(written.map((f) => f.slice(dir.length + 1)).sort()).toEqual(expect.arrayContaining(['report/timeline.html', 'report/counterexample.json']));
    expect(written.filter((f) => readFileSync(f, 'utf8').includes('durasim-canary-'))).toEqual([]);
    expect([...out, ...err].join('\n')).not.toContain('durasim-canary-');
    // The saved scenario names the canary's number, never the token: it replays the same.
    expect(readFileSync(report('counterexample.json'), 'utf8')).toMatch(/"accessToken": \{\s+"canary": \d+\s+\}/);
  });

  test('a clean journal exits 0; the seed is the first line; the reports are written', async () => {
    expect(await run('check', '--no-sweep', '--runs', '30', '--seed', '5', ...common('restart'))).toBe(0);
    expect(out[0]).toMatch(/^seed 5 · faults crash,disk,io,response,duplicate,user,service-restart,intent,store,failure/);
    for (const file of ['summary.json', 'report.md', 'junit.xml']) expect(existsSync(report(file)), file).toBe(true);
    expect(JSON.parse(readFileSync(report('summary.json'), 'utf8'))).toMatchObject({ verdict: 'clean', exitCode: 0, runsExecuted: 30, seed: 5 });
    // When clean, what to try next, as whole commands; then the end line, as a test runner's.
    expect(out.at(-1)).toBe('invariants  28 held (28 judged) · exit 0 (clean)');
    expect(out.at(-2)).toBe('next: npx durasim explore --journal reference (a crash at every step) · npx durasim check --journal reference --seed 6 --runs 300 (a wider search)');
    // The fault windows the runs hit: counted in the summary line, listed in summary.json, tallied per fault in report.md.
    const { coverage } = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { coverage: { windows: string[]; reachable: number; aimedRuns: number } };
    expect(coverage.aimedRuns).toBe(0);
    expect(coverage.windows.length).toBeGreaterThan(5);
    for (const w of coverage.windows) expect(w).toMatch(/^[a-z -]+[a-zA-Z0-9 -]* @ [a-zA-Z/ ]+ · (first|restarted|second worker|none)$/);
    expect(coverage.reachable).toBeGreaterThanOrEqual(coverage.windows.length);
    // A clean check's real restart (its default): its line after the summary's.
    expect(out.at(-4)).toBe('in real processes: both clean');
    expect(out.at(-5)).toBe(`fault windows hit: ${coverage.windows.length} of ${coverage.reachable} within reach (${Math.round((100 * coverage.windows.length) / coverage.reachable)}%) (a fault × the kind of step it struck × whose step); no run aimed at one`);
    expect(readFileSync(report('report.md'), 'utf8')).toContain('## Fault windows\n\nfault windows hit: ');
  });

  test('without --workers, a small budget searches on one worker and a finding is shrunk on every core', async () => {
    const { availableParallelism } = await import('node:os');
    const args = ['--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'];
    expect(await run('check', '--no-sweep', '--journal', 'blind-overwrite', '--runs', '50', '--seed', '2', ...args)).toBe(1);
    expect(out[0]).toMatch(/ · 50 runs · no single-fault sweep · 1 worker$/);
    expect(JSON.parse(readFileSync(report('summary.json'), 'utf8'))).toMatchObject({ verdict: 'safety', workers: availableParallelism() });
  });

  test('--guided aims every other run after the first 100 at a window no run had hit, and says how many struck it', async () => {
    expect(await run('check', '--no-sweep', '--guided', '--runs', '140', '--seed', '5', ...common())).toBe(0);
    const { coverage } = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { coverage: { windows: string[]; aimedRuns: number; aimedHits: number } };
    expect(coverage.aimedRuns).toBe(20);
    expect(coverage.aimedHits).toBeGreaterThan(10);
    expect(out.at(-4)).toMatch(new RegExp(`^fault windows hit: ${coverage.windows.length} of \\d+ within reach \\(\\d+%\\) \\(a fault × the kind of step it struck × whose step\\); 20 runs aimed at one no run had hit, ${coverage.aimedHits} of them struck it$`));
  });

  test('a safety violation exits 1 and ends with the one command that replays it, then the end line', async () => {
    expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--runs', '50', '--seed', '5', ...common())).toBe(1);
    expect(out.at(-1)).toMatch(/^invariants {2}\d+ failed \| \d+ held \(28 judged\) · exit 1 \(safety\)$/);
    // The replay names the saved regression, which the next check does not overwrite.
    expect(out.at(-2)).toMatch(new RegExp(`^replay: npx durasim replay ${join(dir, 'regressions')}/send-before-dispatched/[0-9a-f]{16}\\.json --journal send-before-dispatched$`));
    // How far it shrank, as fast-check would say it.
    expect(out.join('\n')).toMatch(/^ {2}shrunk \d+ times? \(\d+ candidates? tried in \d+\.\d s, faults \d+ → \d+\)/m);
    for (const file of ['counterexample.json', 'timeline.html', 'report.md', 'junit.xml', 'summary.json']) expect(existsSync(report(file)), file).toBe(true);
    expect(readFileSync(report('junit.xml'), 'utf8')).toContain('<testcase classname="durasim.send-before-dispatched" name="write-ahead" time="0"><failure');
    out = [];
    expect(await run('replay', report('counterexample.json'), '--journal', 'send-before-dispatched')).toBe(1);
    expect(out.at(-1)).toMatch(/^ {2}write-ahead \[post-a\] at #\d+/);
  });

  test('the reports say what the counterexample breaks with its faults removed, by a replay: nothing, for a crash the defect needs', async () => {
    const minimal = join(ROOT, 'reports', 'mutants', 'minimal', 'resend-instead-of-query.json');
    expect(await run('replay', minimal, '--journal', 'resend-instead-of-query', '--report-dir', join(dir, 'report'))).toBe(1);
    const summary = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { faultFree?: string[]; violations: { code: string }[] };
    expect(summary.violations.map((v) => v.code)).toContain('no-blind-retry');
    expect(summary.faultFree).toEqual([]);
  });

  test('under GitHub Actions each finding is also an ::error annotation on its regression file; elsewhere it is not', async () => {
    vi.stubEnv('GITHUB_ACTIONS', 'true');
    expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--runs', '50', '--seed', '5', ...common())).toBe(1);
    vi.unstubAllEnvs();
    expect(out.filter((l) => l.startsWith('::error file='))).toEqual([expect.stringMatching(/^::error file=.*\/send-before-dispatched\/[0-9a-f]{16}\.json,title=durasim%3A write-ahead::write-ahead \[post-a\]/)]);
    out = [];
    vi.stubEnv('GITHUB_ACTIONS', '');
    expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--runs', '50', '--seed', '5', ...common())).toBe(1);
    vi.unstubAllEnvs();
    expect(out.some((l) => l.startsWith('::error'))).toBe(false);
  });

  test('the time budget stops a long run early, and says so', async () => {
    expect(await run('check', '--no-sweep', '--runs', '100000', '--seed', '4', '--time-budget', '300ms', ...common())).toBe(0);
    const summary = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { runsExecuted: number; timeBudgetHit: boolean };
    expect(summary.timeBudgetHit).toBe(true);
    expect(summary.runsExecuted).toBeLessThan(100000);
    // The rate has a decimal below 10/s (a busy machine: "9 runs in 0.94 s (9.6/s)").
    expect(out.at(-5)).toMatch(/^\d+ runs in [\d.]+ s \([\d.]+\/s\), stopped by the time budget; re-run \d+ for determinism: clean$/);
  });

  test('shards split the runs deterministically', async () => {
    expect(await run('check', '--no-sweep', '--runs', '20', '--seed', '9', '--shard', '1/2', ...common())).toBe(0);
    const first = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { runsExecuted: number; coverage: { windows: string[] } };
    const second = join(dir, 'second');
    expect(await run('check', '--no-sweep', '--runs', '20', '--seed', '9', '--shard', '2/2', '--report-dir', second, '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart')).toBe(0);
    expect(first.runsExecuted + (JSON.parse(readFileSync(join(second, 'summary.json'), 'utf8')) as { runsExecuted: number }).runsExecuted).toBe(20);
    out = [];
    expect(await run('merge', report('summary.json'), join(second, 'summary.json'))).toBe(0);
    const merged = JSON.parse(out.join('\n')) as { coverage: { windows: string[] } };
    expect(merged).toMatchObject({ runsExecuted: 20, exitCode: 0, shards: ['1/2', '2/2'] });
    // The fault windows of the two shards, together.
    const shardWindows = [first, JSON.parse(readFileSync(join(second, 'summary.json'), 'utf8'))].map((s) => (s as { coverage: { windows: string[] } }).coverage.windows);
    expect(merged.coverage.windows).toEqual([...new Set(shardWindows.flat())].sort());
    // The JSON on stdout is for scripts; the verdict, for a person, on stderr.
    expect(err.join('')).toMatch(new RegExp(`^merged 2 summaries \\(reference; seed 9\\): 20 runs, ${merged.coverage.windows.length} fault windows hit, exit 0 \\(clean, clean\\)\\n$`));
  });
});

describe('check --tally, --invariants, --safety-only', () => {
  test('--tally runs the whole budget, counts failing runs per invariant and saves one counterexample of each', async () => {
    expect(await run('check', '--no-sweep', '--journal', 'no-fsync', '--tally', '--runs', '60', '--seed', '5', ...common())).toBe(1);
    const summary = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { runsExecuted: number; tally: Record<string, number>; counterexamples: { invariant: string; regressionFile: string }[] };
    expect(summary.runsExecuted).toBe(60);
    expect(summary.tally['write-ahead']).toBeGreaterThan(25);
    expect(summary.counterexamples.map((c) => c.invariant).sort()).toEqual(Object.keys(summary.tally).sort());
    for (const c of summary.counterexamples) expect(existsSync(c.regressionFile), c.regressionFile).toBe(true);
    expect(out.join('\n')).toMatch(/^ {2}write-ahead: \d+ failing runs · shrunk to 0 faults$/m);
    expect(readFileSync(report('report.md'), 'utf8')).toMatch(/## Failing runs per invariant\n\n\| invariant \| failing runs \| counterexample \| replay \|\n\|---\|---\|---\|---\|\n\| `write-ahead` \| \d+ \| 0 fault\(s\) \| `npx durasim replay /);
    out = [];
    expect(await run('merge', report('summary.json'), report('summary.json'))).toBe(1);
    expect((JSON.parse(out.join('\n')) as { tally: Record<string, number> }).tally['write-ahead']).toBe(2 * (summary.tally['write-ahead'] ?? 0));
  });

  test('the tally is the same for one worker and for two', async () => {
    const tally = async (workers: string, folder: string) => {
      expect(await run('check', '--no-sweep', '--journal', 'no-fsync', '--tally', '--runs', '24', '--seed', '8', '--workers', workers, '--report-dir', join(dir, folder), '--regressions', join(dir, `${folder}-reg`), '--no-progress')).toBe(1);
      return (JSON.parse(readFileSync(join(dir, folder, 'summary.json'), 'utf8')) as { tally: Record<string, number> }).tally;
    };
    expect(await tally('1', 'one')).toEqual(await tally('2', 'two'));
  });

  test('--invariants judges only those named; --safety-only ignores liveness', async () => {
    expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--invariants', 'no-silent-overwrite', '--runs', '40', '--seed', '5', ...common('restart'))).toBe(0);
    expect(out[1]).toBe('judged by 1 invariant: safety no-silent-overwrite (docs/invariants.md)');
    out = [];
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--safety-only', '--runs', '100', '--seed', '5', ...common('restart'))).toBe(0);
    expect(out[1]).toMatch(/^judged by 26 invariants: safety one-effect-per-key, .*version-change-pauses, cleanup-owned-only, routed-requests, fault-free-effects, evidence-retained \(docs\/invariants\.md\)$/);
    out = [];
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--runs', '100', '--seed', '5', ...common())).toBe(3);
    expect(out[1]).toMatch(/^judged by all 28 invariants: safety one-effect-per-key, .* · liveness convergence, journal-error \(docs\/invariants\.md\)$/);
   });

  test('an unknown invariant, or nothing left to judge, is bad usage', async () => {
    expect(await run('check', '--no-sweep', '--invariants', 'one-effect', ...common())).toBe(2);
    expect(err.join('')).toContain('Failed to read the command line: --invariants must be a comma-separated list of invariants, found "one-effect". Use any of one-effect-per-key,');
    expect(await run('check', '--no-sweep', '--invariants', 'convergence', '--safety-only', ...common())).toBe(2);
    expect(err.join('')).toContain('Failed to read the command line: --safety-only leaves none of the --invariants to judge. Drop --safety-only, or name a safety invariant');
  });
});

describe('help and version', () => {
  test('each command answers --help and -h with its own usage, exit 0; so does "durasim help <command>"', async () => {
    for (const argv of [['check', '--help'], ['check', '-h'], ['help', 'check']]) {
      out = [];
      expect(await run(...argv), argv.join(' ')).toBe(0);
      expect(out.join('\n')).toMatch(/^usage:\n {2}durasim check {3}\[--journal <module>\]/);
      expect(out.join('\n')).not.toContain('durasim replay');
    }
    out = [];
    expect(await run('replay', '--help')).toBe(0);
    expect(out.join('\n')).toMatch(/^usage:\n {2}durasim replay {2}<scenario.json>/);
  });

  test('--version prints the package version, exit 0, alone or after any command', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toBe(0);
    expect(out).toEqual([`durasim ${pkg.version}`]);
    for (const command of ['check', 'merge', 'confirm']) {
      out = [];
      expect(await run(command, '--version')).toBe(0);
      expect(out).toEqual([`durasim ${pkg.version}`]);
    }
  });
});

describe('bad input exits 2 with the house style, and writes nothing', () => {
  test.each([
    [['check', '--frobnicate'], 'Failed to read the command line: check has no flag --frobnicate. Run "durasim check --help" for its flags.'],
    [['check', '--runz', '5'], 'Failed to read the command line: check has no flag --runz. Did you mean --runs? Run "durasim check --help" for its flags.'],
    [['explore', '--dept', '2'], 'Failed to read the command line: explore has no flag --dept. Did you mean --depth? Run "durasim explore --help" for its flags.'],
    [['check', '--runs'], 'Failed to read the command line: --runs needs a value. Run "durasim check --help" for its flags.'],
    [['check', '--runs', '--tally'], 'Failed to read the command line: --runs needs a value. Run "durasim check --help" for its flags.'],
    [['check', '--tally=yes'], 'Failed to read the command line: --tally takes no value, found "yes". Pass --tally alone.'],
    [['mutants', '--runs', '0'], 'Failed to read the command line: --runs must be a whole number of at least 1, found "0". Pass e.g. --runs 500.'],
    [['chekc'], 'Failed to read the command line: there is no command "chekc". Did you mean check? Use check, replay, explain, confirm, explore, regressions, mutants or merge (durasim help lists them).'],
    [['check', '--runs', 'many'], 'Failed to read the command line: --runs must be a whole number, found "many". Pass e.g. --runs 500.'],
    [['check', '--runs', '-1'], 'Failed to read the command line: --runs must be a whole number, found "-1". Pass e.g. --runs 500.'],
    [['check', '--runs', '--seed', '3'], 'Failed to read the command line: --runs needs a value. Run "durasim check --help" for its flags.'],
    [['check', '--faults', 'crash,meteor'], 'Failed to read the command line: --faults must be a comma-separated list of crash, disk, io, response, duplicate, user, service-restart, intent, store, failure, concurrent, found "crash,meteor". Pass e.g. --faults crash,response.'],
    [['check', '--sweep', '--no-sweep'], 'Failed to read the command line: --sweep and --no-sweep both given. Pass one of them (the sweep runs unless --no-sweep).'],
    [['check', '--shard', '3/2'], 'Failed to read the command line: --shard must be i/n with 1 <= i <= n, found "3/2". Pass e.g. --shard 1/4 on the first of four CI jobs.'],
    [['frobnicate'], 'Failed to read the command line: there is no command "frobnicate". Use check, replay, explain, confirm, explore, regressions, mutants or merge (durasim help lists them).'],
  ])('%j', async (argv, message) => {
    expect(await run(...argv, '--report-dir', join(dir, 'report'))).toBe(2);
    expect(err.join('')).toBe(`${message}\n`);
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });

  test('a missing module', async () => {
    expect(await run('check', '--no-sweep', '--journal', join(dir, 'nope.ts'), ...common())).toBe(2);
    expect(err.join('')).toMatch(/^Failed to load the journal: no file at .*nope\.ts, and ".*nope\.ts" is not a bundled journal\. Pass a path to your adapter module, "reference", or one of the mutants: send-before-dispatched, /);
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });

  test.each([
    ['journal.cjs', "module.exports = { name: 'cjs-journal', async run(env) { await env.clock.now(); }, inspect() { return {}; } };\n"],
    ['journal.mjs', "export const name = 'esm-parts';\nexport async function run(env) { await env.clock.now(); }\nexport function inspect() { return {}; }\n"],
    ['named.ts', "export const LOG = 'log.jsonl';\nexport const myJournal = { name: 'named-export', async run(env: { clock: { now(): Promise<number> } }) { await env.clock.now(); }, inspect() { return {}; } };\n"],
  ])('a module that is the adapter itself (%s: name, run and inspect exported one by one), or has one adapter among its exports, is accepted', async (name, text) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '3', '--faults', 'response', '--safety-only', ...common())).toBe(0);
    expect(err.join('')).toBe('');
  });

  test('a module without an adapter says what it found and what is expected', async () => {
    const file = join(dir, 'not-a-journal.ts');
    writeFileSync(file, 'export const answer = 42;\nexport const helper = { run() {} };\n');
    expect(await run('check', '--no-sweep', '--journal', file, ...common())).toBe(2);
    expect(err.join('')).toBe(
      `Failed to load the journal: ${file} has exports answer (number), helper (an object with run), but no JournalAdapter. Export one as the default export or as "journal" (or export name, run and inspect themselves): an object with name (string), run(env, task) and inspect(disk).\n`,
    );
  });

  test('a module with two adapters among its exports is refused: durasim cannot tell which', async () => {
    const file = join(dir, 'two-journals.ts');
    writeFileSync(file, "const run = async () => {};\nconst inspect = () => ({});\nexport const fast = { name: 'fast', run, inspect };\nexport const safe = { name: 'safe', run, inspect };\n");
    expect(await run('check', '--no-sweep', '--journal', file, ...common())).toBe(2);
    expect(err.join('')).toBe(`Failed to load the journal: ${file} exports 2 journal adapters (fast, safe), and durasim cannot tell which one to check. Export the one to check as the default export or as "journal", or put each in a module of its own.\n`);
  });

  test('a malformed scenario, and one of a newer format version', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "format": "durasim.scenario", ');
    expect(await run('replay', bad)).toBe(2);
    expect(err.join('')).toMatch(/^Failed to load scenario: the file is not valid JSON \(.+\)\. Fix the scenario file, or regenerate it with durasim\.\n$/);
    err = [];
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ format: 'durasim.scenario', version: 9, task: { id: 't', operations: [] } }));
    expect(await run('explain', newer)).toBe(2);
    expect(err.join('')).toBe('Failed to load scenario: version is 9, newer than this durasim understands (3). Upgrade durasim to replay this scenario.\n');
  });
});

describe('liveness and sandbox exit codes', () => {
  test('a journal that never converges exits 3, and what it threw is shown', async () => {
    expect(await run('replay', join(ROOT, 'reports/mutants/minimal/torn-tail-fatal.json'), '--journal', 'torn-tail-fatal')).toBe(3);
    expect(out.join('\n')).toContain('convergence at #');
    expect(out.join('\n')).toMatch(/^journal: worker-0 \(incarnations 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11\) exited with SyntaxError: .*JSON/m);
  });

  test("a journal whose inspect() throws is told so, not just judged on empty records", async () => {
    const file = join(dir, 'blind.ts');
    writeFileSync(file, "export const journal = { name: 'blind', async run(env) { await env.clock.now(); }, inspect() { throw new Error('cannot parse my own log'); } };\n");
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', '--seed', '1', ...common())).toBe(3);
    expect(out).toContain('  journal: inspect() threw: cannot parse my own log');
    expect(readFileSync(report('report.md'), 'utf8')).toContain('## What the journal reported\n\n- inspect() threw: cannot parse my own log');
  });

  test('a journal that reads the real machine exits 4; node:os answers for the simulated machine', async () => {
    const file = join(dir, 'peeker.ts');
    writeFileSync(file, "import { hostname, homedir } from 'node:os';\nexport default { name: 'peeker', async run(env) { await env.clock.now(); if (hostname() !== 'durasim-host' || homedir() !== '/home/durasim') throw new Error('not the simulated machine'); process.memoryUsage(); }, inspect: () => ({}) };\n");
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', '--seed', '1', ...common())).toBe(4);
    expect(out.join('\n')).toContain('  sandbox: worker-0#0 it called process.memoryUsage, which reads the real machine, which differs from run to run (process.memoryUsage)');
  });
});

describe('the durasim binary', () => {
  test('exits with the code main returns, and loads TypeScript', () => {
    const bin = spawnSync(process.execPath, [join(ROOT, 'src/bin/durasim.mjs'), 'check', '--no-sweep', '--bogus'], { encoding: 'utf8', cwd: dir });
    expect(bin.status).toBe(2);
    expect(bin.stderr).toBe('Failed to read the command line: check has no flag --bogus. Run "durasim check --help" for its flags.\n');
  });
});
