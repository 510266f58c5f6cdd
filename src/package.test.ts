/**
 * The package as a user gets it: `npm pack` (which builds dist/), the tarball installed into a
 * fresh consumer project of type "commonjs", and then what a user does with it: the README's
 * commands for a project, the tutorial's and the CI recipe's, as written (with DURASIM_WALKTHROUGH=1,
 * as .ci/run runs it); import it from an .mjs file, check a .ts and a .js journal with `npx durasim`, run every replay line exactly as
 * printed, use checkJournal in vitest, and type-check with the strictest compiler settings.
 *
 * A CI stage of its own, with DURASIM_PACKAGE=1 (.ci/run's 'package', one `npm pack` for all of it,
 * the walkthrough too; and the Node 22 and 24 suites): packing builds dist/ with tsc, and the whole
 * file costs ~30 s of CPU, which `npm test` (the sources' suite, five minutes on two cores) leaves to CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ciRecipe, quotedFragments, section, shellCommands } from '../docs/shellBlocks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = join(ROOT, 'examples', 'node-journal');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The example journals the README and the tutorial have a reader copy out of node_modules. */
const SHIPPED_EXAMPLES = ['examples/node-journal/journal.ts', 'examples/node-journal/journal-unsynced.ts', 'examples/payout-worker/worker.ts', 'examples/payout-worker/adapter.ts', 'examples/payout-worker/durasim.config.json', 'examples/payout-worker/payouts.json', 'examples/payout-worker/worker-unsynced.ts', 'examples/payout-worker/worker-resends.ts', 'examples/payout-worker/adapter-unsynced.ts', 'examples/payout-worker/adapter-resends.ts'];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };

let work: string;
let consumer: string;
let packed: { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] };

/** A shell command in the consumer project: its exit code and everything it printed. */
function inConsumer(command: string): { code: number; out: string } {
  const run = spawnSync(command, { cwd: consumer, shell: true, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NO_COLOR: '1', CI: '' } });
  return { code: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
}

const PACKAGE = process.env.DURASIM_PACKAGE === '1';

beforeAll(() => {
  if (!PACKAGE) return;
  work = mkdtempSync(join(tmpdir(), 'durasim-package-'));
  const json = execFileSync(NPM, ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
  packed = (JSON.parse(json) as (typeof packed)[])[0] as typeof packed;
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'commonjs' }, null, 2));
  const tools = ['typescript', '@types/node', 'vitest', 'vite'].map((name) => `${name}@${pkg.devDependencies[name]}`);
  execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename), ...tools], { cwd: consumer, stdio: 'pipe', timeout: 300_000 });
  copyFileSync(join(EXAMPLE, 'journal.ts'), join(consumer, 'journal.ts'));
  // A .js journal as someone writes one: CommonJS, no types; this one has the unsynced defect.
  const unsynced = readFileSync(join(EXAMPLE, 'journal-unsynced.ts'), 'utf8');
  writeFileSync(join(consumer, 'journal.js'), transformSync(unsynced, { loader: 'ts', format: 'cjs', target: 'node20' }).code);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!PACKAGE)('the packed package', () => {
  test('holds the compiled code, its types, the schema and the docs, and no tests, reports, bench or CI files', () => {
    const files = packed.files.map((f) => f.path);
    console.log(`durasim-${pkg.version}.tgz: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked`);
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'bin/durasim.mjs', 'dist/graph.mjs', 'dist/graph.journal-side.mjs', 'schema/scenario.schema.json', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/bin/durasim.mjs', 'dist/src/bin/parentShell.mjs', 'dist/src/bin/nodeSupport.mjs', 'dist/src/pool/poolBoot.mjs', 'dist/src/journals/reference.js', 'reports/mutants/minimal/no-fsync.json', 'reports/mutants.md', 'reports/detection.md', 'docs/tutorial.md', ...SHIPPED_EXAMPLES]) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter((f) => !SHIPPED_EXAMPLES.includes(f) && f !== 'reports/mutants.md' && f !== 'reports/detection.md').filter((f) => /\.test\.|^reports\/(?!mutants\/minimal\/[\w-]+\.json$)|\/bench\/|^\.ci\/|^src\/|^tsconfig|^vitest\.config|^examples\/|^properties\/|\/fixtures\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')));
    expect(unwanted).toEqual([]);
    // Its module graph names no path of the tree that built it: installed anywhere, it runs its own files.
    expect(readFileSync(join(consumer, 'node_modules', 'durasim', 'dist', 'graph.mjs'), 'utf8')).not.toContain(ROOT.replace(/\/$/, ''));
    expect(readFileSync(join(consumer, 'node_modules', 'durasim', 'dist', 'graph.journal-side.mjs'), 'utf8')).not.toContain(ROOT.replace(/\/$/, ''));
  });

  test('every relative link in a shipped document resolves inside the package', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const broken: string[] = [];
    for (const doc of [...files].filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link as string) || (link as string).startsWith('#')) continue;
        const target = posix.normalize(posix.join(posix.dirname(doc), (link as string).split('#')[0] as string)).replace(/\/$/, '');
        if (!files.has(target) && ![...files].some((f) => f.startsWith(`${target}/`))) broken.push(`${doc} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  // What a reader types, in order: the README's project commands, the tutorial, the CI recipe. About
  // 35 s on top of the pack: CI runs them (.ci/run, DURASIM_WALKTHROUGH=1) as it runs every confirm
  // and the whole trace corpus; the five-minute suite checks their shape (docs/tutorial.test.ts,
  // docs/readme.test.ts) and the package's other uses below.
  describe.skipIf(process.env.DURASIM_WALKTHROUGH !== '1')('as a reader follows the docs', () => {
    test("the README's commands for a project run as written (the install done from the tarball): the check clean, the copied example's defect found, its fix clean", () => {
      const commands = shellCommands(section(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## In your project'));
      expect(commands[0]?.command).toBe('npm install --save-dev durasim');
      expect(commands.length).toBeGreaterThanOrEqual(4);
      for (const { command, exit } of commands.slice(1)) {
        const { code, out } = inConsumer(command);
        if (command === 'npx durasim check') expect(out).toMatch(/runs in .*: clean$/m);
        if (command.includes('my-journal/journal.ts')) expect(out).toContain('journal node-journal');
        expect(code, `${command}\n${out}`).toBe(exit);
      }
    });

    test('the tutorial runs as written, each command with the exit code it names, and the first check prints what it quotes', () => {
      const tutorial = readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8');
      const commands = shellCommands(tutorial);
      expect(commands).toHaveLength(6);
      for (const [i, { command, exit }] of commands.entries()) {
        const { code, out } = inConsumer(command);
        expect(code, `${command}\n${out}`).toBe(exit);
        if (i === 1) for (const fragment of quotedFragments(tutorial)) expect(out).toContain(fragment);
      }
    });

    test('the guide to the worker you already have runs as written: the copied payout worker clean, each broken copy found', () => {
      const guide = readFileSync(join(ROOT, 'docs', 'your-worker.md'), 'utf8');
      const commands = shellCommands(guide);
      expect(commands).toHaveLength(4);
      for (const { command, exit } of commands) {
        const { code, out } = inConsumer(command);
        expect(code, `${command}\n${out}`).toBe(exit);
        if (command.includes('adapter-unsynced')) expect(out).toMatch(/^ {2}write-ahead \[po_100\d\]/m);
      }
    });

    test("the README's CI recipe runs as written: each shard's check (a budget of 40 here) writes into folders that do not exist yet, and merge folds them; a shard that finds a defect prints only paths its artifact holds", () => {
      const { check, merge, uploaded } = ciRecipe(readFileSync(join(ROOT, 'README.md'), 'utf8'));
      expect(check).toContain('--runs 20000');
      copyFileSync(join(EXAMPLE, 'journal.ts'), join(consumer, 'my-journal.ts'));
      for (const shard of [1, 2, 3, 4]) {
        const { code, out } = inConsumer(check.replaceAll('${{ matrix.shard }}', String(shard)).replace('--runs 20000', '--runs 40'));
        expect(code, out).toBe(0);
        expect(readFileSync(join(consumer, 'out', `${shard}.xml`), 'utf8')).toContain('<testsuite');
      }
      const merged = inConsumer(merge);
      // Each shard swept its share of the crash points (every fourth step): together, all of them.
      expect(merged.out).toMatch(/^merged 4 summaries \(node-journal; seed 20261130\): \d+ runs, single-fault sweep: \d+ states at (\d+) of \1 crash points, complete, two-fault pairs: \d+ of \d+ kept tried in \d+ runs, \d+ fault windows hit, exit 0 /m);
      expect(merged.code, merged.out).toBe(0);
      // The same line on a journal with a defect (the unsynced copy, as shard 1 in folders of its own): every path it prints is in what the job uploads.
      const defect = inConsumer(check.replace('${{ matrix.shard }}/', '1/').replaceAll('${{ matrix.shard }}', 'defect').replace('--runs 20000', '--runs 2000').replace('./my-journal.ts', './journal.js'));
      expect(defect.code, defect.out).toBe(1);
      const printed = [
        ...(/^reports: (.+)$/m.exec(defect.out)?.[1] ?? '').split(', '),
        /^regression: (\S+)$/m.exec(defect.out)?.[1] ?? '',
        /^replay: npx durasim replay (\S+) /m.exec(defect.out)?.[1] ?? '',
      ];
      expect(printed.length, defect.out).toBeGreaterThanOrEqual(5);
      for (const path of printed) {
        expect(uploaded.some((folder) => path.startsWith(`${folder}/`) || path === folder), `${path} is not in the artifact (${uploaded.join(', ')})`).toBe(true);
        expect(existsSync(join(consumer, path)), path).toBe(true);
      }
    });
  });

  test('an .mjs file imports it with plain Node and simulates a run', () => {
    writeFileSync(join(consumer, 'import.mjs'), [
      "import { simulate, referenceJournal, judge, verdict, parseScenarioText } from 'durasim';",
      "const task = { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] };",
      "const scenario = parseScenarioText(JSON.stringify({ format: 'durasim.scenario', version: 1, task, faults: [{ kind: 'crash', process: 0, incarnation: 0, step: 5, when: 'after' }] }));",
      'const result = await simulate(referenceJournal, scenario);',
      'const { safety, liveness } = verdict(judge(result));',
      "console.log(`${safety.length + liveness.length} violations after ${result.stats.steps} steps, ${result.crashes.length} crash`);",
      "const internals = await import('durasim/internals');",
      "console.log(`internals: ${typeof internals.WorkerPool}; root: ${typeof (await import('durasim')).WorkerPool}`);",
    ].join('\n'));
    const { code, out } = inConsumer('node import.mjs');
    expect(out).toMatch(/^0 violations after \d+ steps, 1 crash$/m);
    expect(out).toMatch(/^internals: function; root: undefined$/m);
    expect(code).toBe(0);
  });

  test('npx durasim runs from dist: --version, and a .ts journal of a CommonJS project checked clean', () => {
    expect(inConsumer('npx durasim --version').out.trim()).toBe(`durasim ${pkg.version}`);
    // Drawn runs only: the single-fault sweep from dist is the walkthrough's (.ci/run: the README's `npx durasim check` and the CI
    // recipe run it as written), and here it cost ~8 s of CPU for what the 60 runs show, dist loading and checking a .ts journal.
    const { code, out } = inConsumer('npx durasim check --journal ./journal.ts --no-sweep --runs 60 --seed 7');
    expect(out).toContain('journal node-journal');
    expect(out).toMatch(/: clean$/m);
    // Its real restarts ran from dist too: real worker processes booted from the package's own files.
    expect(out).toMatch(/^in real processes: both clean$/m);
    expect(code).toBe(0);
  });

  test("an install missing its pool worker's boot file, or whose module graph is broken, ends check with exit 5, naming the file and the fix (it hung until killed)", () => {
    const dist = realpathSync(join(consumer, 'node_modules', 'durasim', 'dist'));
    const boot = join(dist, 'src', 'pool', 'poolBoot.mjs');
    renameSync(boot, `${boot}.aside`);
    try {
      const { code, out } = inConsumer('npx durasim check --journal ./journal.ts --no-sweep --runs 5 --seed 7');
      expect(out).toContain(`Failed to start a worker thread of durasim's pool: its entry file ${boot} is missing: durasim's package is incomplete. Reinstall durasim (npm install durasim;`);
      expect(code).toBe(5);
    } finally {
      renameSync(`${boot}.aside`, boot);
    }
    const graph = join(dist, 'graph.mjs');
    renameSync(graph, `${graph}.aside`);
    try {
      writeFileSync(graph, 'export const MODULES = {\n'); // cut short
      const { code, out } = inConsumer('npx durasim check --journal ./journal.ts --no-sweep --runs 5 --seed 7');
      const said = out.split('\n').find((line) => line.startsWith("Failed to load durasim's module graph: "));
      expect(said, out).toMatch(/: .+ threw SyntaxError: .+\. Reinstall durasim \(npm install durasim; .+ report it with the command line you ran\.$/);
      expect(said).toContain(` ${graph} threw `);
      expect(code).toBe(5);
    } finally {
      renameSync(`${graph}.aside`, graph);
    }
  });

  test('a .js journal with a defect is caught, and the printed replay line, run as printed, fails the same way', () => {
    const check = inConsumer('npx durasim check --journal ./journal.js --runs 300 --seed 7');
    expect(check.out).toContain('write-ahead');
    expect(check.code).toBe(1);
    const replay = /^replay: (npx durasim replay .+)$/m.exec(check.out)?.[1];
    expect(replay).toMatch(/--journal \.\/journal\.js$/);
    const replayed = inConsumer(replay as string);
    expect(replayed.out).toContain('write-ahead');
    expect(replayed.code).toBe(1);
  });

  test('vitest runs checkJournal on a journal module, and the replay line its failure prints runs as printed', () => {
    writeFileSync(join(consumer, 'journal.test.mts'), [
      "import { writeFileSync } from 'node:fs';",
      "import { expect, test } from 'vitest';",
      "import { checkJournal } from 'durasim';",
      "test('the journal keeps its promises', () => checkJournal(new URL('./journal.ts', import.meta.url), { runs: 60, seed: 7, workers: 1 }), 120_000);",
      "test('the unsynced journal is caught', async () => {",
      "  const failure = await checkJournal(new URL('./journal.js', import.meta.url), { runs: 300, seed: 7, workers: 1 }).then(() => undefined, (error: Error) => error);",
      '  expect(failure?.message).toContain("write-ahead");',
      "  writeFileSync('vitest-replay.txt', /^replay: (.+)$/m.exec(failure?.message ?? '')?.[1] ?? '');",
      '}, 120_000);',
    ].join('\n'));
    const { code, out } = inConsumer('npx vitest run journal.test.mts');
    expect(out).toMatch(/2 passed/);
    expect(code).toBe(0);
    const replay = readFileSync(join(consumer, 'vitest-replay.txt'), 'utf8');
    expect(replay).toMatch(/^npx durasim replay \S+ --journal \.\/journal\.js$/);
    const replayed = inConsumer(replay);
    expect(replayed.out).toContain('write-ahead');
    expect(replayed.code).toBe(1);
  });

  test("a CommonJS test file (node --test, as Jest's or mocha's would) require()s it and runs checkJournal", () => {
    // Node ≥ 20.19 require()s an ES module graph, unless a module in it has a top-level await.
    writeFileSync(join(consumer, 'journal.test.cjs'), [
      "const test = require('node:test');",
      "const { checkJournal } = require('durasim');",
      "test('the journal keeps its promises', () => checkJournal('./journal.ts', { runs: 20, seed: 7, workers: 1 }));",
    ].join('\n'));
    // TAP on every line: Node 20's default reporter when not on a terminal, not 24's (spec, which says "ℹ pass 1").
    const { code, out } = inConsumer('node --test --test-reporter=tap journal.test.cjs');
    expect(out).not.toContain('ERR_REQUIRE_ASYNC_MODULE');
    expect(out).toMatch(/^# pass 1$/m);
    expect(code, out).toBe(0);
  });

  test("tsc --noEmit passes with strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes and the library's own declarations checked", () => {
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: false, noEmit: true, types: ['node'] },
      include: ['journal.ts', 'journal.test.mts'],
    }));
    const { code, out } = inConsumer('npx tsc --noEmit -p tsconfig.json');
    expect(out).toBe('');
    expect(code).toBe(0);
  });
});
