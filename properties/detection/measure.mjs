#!/usr/bin/env node
/**
 * What a default `check` finds, per corpus (issue 52): the tuned corpus (the built-in mutants,
 * src/journals/mutants/, which the generator was tuned on) and the blind corpus
 * (properties/blind/corpus.json, never tuned on), each journal checked as a user checks it:
 *
 *   npx durasim check --journal <j> --seed S --workers 1 --no-progress   (seeds 1, 2, 3)
 *
 * — the default budget (1,000 drawn runs), the single-fault sweep and the two-fault pairs first, as `check` does by
 * default; a mutant with its own families (a server's journal: concurrent calls) and a blind
 * journal with its config or families pass them as the user would (`--faults`, `--config`). Each
 * check starts with an empty regression folder. From each: who found it (the fault-free run, the
 * sweep, or a drawn run), the sweep's states, runs and CPU, the drawn runs to the first failure, the
 * invariants of the counterexample and its faults.
 *
 * Writes reports/detection.json and reports/detection.md (the tables docs/benchmark.md and
 * reports/mutants.md point to). Two checks run at a time, each on one worker thread.
 *
 *   node properties/detection/measure.mjs                  # both corpora, seeds 1-3 (seeds after the first only where the drawn runs found it; --all-seeds for every seed)
 *   node properties/detection/measure.mjs --only blind     # one corpus (the other's rows kept from the last run)
 *   DETECTION_OUT=/tmp/x node properties/detection/measure.mjs --names no-fsync,blind-overwrite --seeds 1   # try the script elsewhere
 *   node properties/detection/measure.mjs --render         # detection.md again from detection.json, nothing measured
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = process.env.DETECTION_OUT ?? join(ROOT, 'reports');
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const SEEDS = (flag('--seeds') ?? '1,2,3').split(',').map(Number);
const onlyCorpus = flag('--only');
const names = flag('--names')?.split(',');
const ALL_SEEDS = args.includes('--all-seeds');
const PARALLEL = 2;
/** A guard against a hung child, never a measurement. */
const GUARD_MS = 30 * 60 * 1000;
const ONE_AT_A_TIME = ['crash', 'disk', 'io', 'response', 'duplicate', 'user', 'service-restart', 'intent', 'store', 'failure'];

/** The built-in mutants, as src/journals/mutants/index.ts lists them (name, families). */
function mutants() {
  const code = "import('./src/journals/mutants/index.ts').then((m) => process.stdout.write(JSON.stringify(m.MUTANTS.map((x) => ({ name: x.journal.name, faults: x.faults ?? null, breaks: x.breaks })))))";
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`Failed to list the mutants: ${child.stderr}`);
  return JSON.parse(child.stdout).map((m) => ({ corpus: 'tuned', name: m.name, expected: m.breaks, minimal: `reports/mutants/minimal/${m.name}.json`, args: ['--journal', m.name, ...(m.faults ? ['--faults', m.faults.join(',')] : [])] }));
}

function blind() {
  const corpus = JSON.parse(readFileSync(join(ROOT, 'properties', 'blind', 'corpus.json'), 'utf8'));
  return corpus.entries.map((e) => ({
    corpus: 'blind',
    name: e.name,
    expected: [e.invariant, ...e.alsoAcceptable],
    minimal: e.minimal,
    // A blind defect tuned on afterwards (corpus.json's tunedOn): listed again with its first, blind result kept.
    ...(e.tunedOn ? { tunedOn: e.tunedOn } : {}),
    // As the blind measurement names them (properties/blind/measure.mjs): a journal called one at a time meets no concurrent call.
    args: ['--journal', e.journal, ...(e.config ? ['--config', e.config] : []), '--faults', (e.concurrent ? [...ONE_AT_A_TIME, 'concurrent'] : ONE_AT_A_TIME).join(',')],
  }));
}

const scratch = mkdtempSync(join(tmpdir(), 'durasim-detection-'));

/** The worker steps and faults of a scenario's run, as `durasim replay` prints them (every worker step a line). */
function stepsOf(entry, file) {
  if (!existsSync(join(ROOT, file)) && !existsSync(file)) return null;
  const dir = mkdtempSync(join(scratch, 'replay-'));
  const journal = entry.args.slice(entry.args.indexOf('--journal'), entry.args.indexOf('--journal') + 2);
  const config = entry.args.includes('--config') ? entry.args.slice(entry.args.indexOf('--config'), entry.args.indexOf('--config') + 2) : [];
  const child = spawnSync(process.execPath, ['bin/durasim.mjs', 'replay', file, ...journal, ...config, '--report-dir', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const steps = (child.stdout.match(/^ *\d+ +\d+ms worker-\d+#\d+ step \d+ /gm) ?? []).length;
  const faults = JSON.parse(readFileSync(existsSync(file) ? file : join(ROOT, file), 'utf8')).faults?.length ?? 0;
  return { faults, steps };
}

function check(entry, seed) {
  const dir = join(scratch, entry.corpus, entry.name, String(seed));
  mkdirSync(dir, { recursive: true });
  const argv = ['bin/durasim.mjs', 'check', ...entry.args, '--seed', String(seed), '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
    child.on('close', (code) => {
      clearTimeout(guard);
      const summaryFile = join(dir, 'report', 'summary.json');
      const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;
      const found = code === 1 || code === 3;
      const bySweep = /^found by the single-fault sweep: (.*)$/m.exec(out)?.[1];
      const byPairs = /^found by the two-fault pairs: (.*)$/m.exec(out)?.[1];
      const codes = [...new Set((summary?.violations ?? []).map((v) => v.code))];
      const sweep = summary?.sweep;
      const counterexample = join(dir, 'report', 'counterexample.json');
      const shrunk = found && existsSync(counterexample) ? stepsOf(entry, counterexample) : null;
      resolve({
        seed,
        shrunk,
        exitCode: code,
        found,
        foundBy: !found ? null : bySweep === 'the fault-free run' ? 'fault-free run' : bySweep !== undefined ? 'sweep' : byPairs !== undefined ? 'pairs' : 'drawn',
        where: bySweep ?? byPairs ?? null,
        sweep: sweep ? { states: sweep.states, points: sweep.points, runs: sweep.runs, cpuMs: Math.round(sweep.cpuMs), complete: sweep.complete } : null,
        // The two-fault pairs after the sweep (check's default since issue 52 item 3): pairs tried of those kept, runs, CPU.
        pairs: sweep?.pairs ? { tried: sweep.pairs.tried, kept: sweep.pairs.kept, runs: sweep.pairs.runs, cpuMs: Math.round(sweep.pairs.cpuMs), complete: sweep.pairs.complete } : null,
        drawnRuns: summary?.runsExecuted ?? null,
        invariants: codes,
        named: codes.some((c) => entry.expected.includes(c)),
        counterexampleFaults: summary?.counterexampleFaults ?? null,
        ...(found || code === 0 ? {} : { output: out.slice(-2000) }),
      });
    });
  });
}

/** Whether a finding came before the drawn runs: the fault-free run, the sweep and the pairs draw nothing from the seed. */
const beforeDraws = (result) => result.found && result.foundBy !== 'drawn';

async function measure(entries) {
  const results = new Map();
  const started = Date.now();
  let checks = 0;
  async function run(jobs) {
    let next = 0;
    async function lane() {
      while (next < jobs.length) {
        const { entry, seed } = jobs[next++];
        const result = await check(entry, seed);
        checks += 1;
        const list = results.get(entry.name) ?? [];
        list.push(result);
        results.set(entry.name, list);
        process.stderr.write(`${entry.corpus} ${entry.name} seed ${seed}: ${result.found ? `found by ${result.foundBy}` : `exit ${result.exitCode}`} (sweep ${result.sweep?.runs ?? '—'} runs, pairs ${result.pairs?.runs ?? '—'} runs, drawn ${result.drawnRuns ?? '—'})\n`);
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, lane));
  }
  // The first seed for every journal; the others only where the first seed's finding (or none) came
  // from the drawn runs, the one phase that draws from the seed — unless --all-seeds. A skipped seed's
  // result is the first seed's, marked copiedFrom.
  const [first, ...rest] = SEEDS;
  await run(entries.map((entry) => ({ entry, seed: first })));
  const again = ALL_SEEDS ? entries : entries.filter((entry) => !beforeDraws(results.get(entry.name)[0]));
  await run(again.flatMap((entry) => rest.map((seed) => ({ entry, seed }))));
  for (const entry of entries) {
    if (again.includes(entry)) continue;
    const list = results.get(entry.name);
    for (const seed of rest) list.push({ ...list[0], seed, copiedFrom: first });
  }
  process.stderr.write(`${checks} checks in ${((Date.now() - started) / 1000).toFixed(0)} s wall\n`);
  return entries.map((entry) => ({ corpus: entry.corpus, name: entry.name, expected: entry.expected, ...(entry.tunedOn ? { tunedOn: entry.tunedOn } : {}), handMinimal: stepsOf(entry, entry.minimal), command: `npx durasim check ${entry.args.join(' ')} --seed S`, seeds: (results.get(entry.name) ?? []).sort((a, b) => a.seed - b.seed) }));
}

function writeDurably(path, text) {
  const temp = `${path}.tmp`;
  writeFileSync(temp, text);
  const fd = openSync(temp, 'r+');
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temp, path);
  const dirFd = openSync(dirname(path), 'r');
  fsyncSync(dirFd);
  closeSync(dirFd);
}

function cell(s) {
  if (s.copiedFrom !== undefined) return `${cellOf(s)} (seed ${s.copiedFrom}'s)`;
  return cellOf(s);
}

function cellOf(s) {
  if (!s.found) return s.exitCode === 0 ? 'not found' : `exit ${s.exitCode}`;
  if (s.foundBy === 'fault-free run') return 'fault-free run';
  if (s.foundBy === 'sweep') return `sweep, ${s.sweep?.runs} runs`;
  if (s.foundBy === 'pairs') return `pairs, ${s.pairs?.runs} runs (after the sweep's ${s.sweep?.runs})`;
  return s.pairs ? `${s.drawnRuns} drawn (after the sweep's ${s.sweep?.runs} and the pairs' ${s.pairs.runs})` : `${s.drawnRuns} drawn (after the sweep's ${s.sweep?.runs})`;
}

/** Within one fault and 10% of the steps of the hand-minimal scenario (the bound reports/mutants.md holds the mutants to). */
function within(shrunk, minimal) {
  if (!shrunk || !minimal) return false;
  return shrunk.faults <= minimal.faults + 1 && shrunk.steps <= Math.ceil(minimal.steps * 1.1);
}

function table(rows, corpus) {
  const mine = rows.filter((r) => r.corpus === corpus);
  const lines = [
    `| ${corpus === 'tuned' ? 'mutant' : 'defect'} | ${SEEDS.map((s) => `seed ${s}`).join(' | ')} | sweep states / runs / CPU s | invariants (expected among them) | shrunk faults / steps at each seed | hand-minimal faults / steps |`,
    `|---|${SEEDS.map(() => '---|').join('')}---|---|---|---|`,
  ];
  for (const r of mine) {
    const first = r.seeds[0];
    const sweepCell = first?.sweep ? `${first.sweep.states} / ${first.sweep.runs} / ${(first.sweep.cpuMs / 1000).toFixed(1)}${first.sweep.complete ? ' (complete)' : ''}` : '—';
    const invariants = [...new Set(r.seeds.flatMap((s) => s.invariants))];
    const shrunk = r.seeds.map((s) => (s.shrunk ? `${s.shrunk.faults} / ${s.shrunk.steps}${within(s.shrunk, r.handMinimal) ? '' : ' (over)'}` : '—')).join(', ');
    lines.push(`| \`${r.name}\`${r.tunedOn ? ' (tuned on afterwards: below)' : ''} | ${r.seeds.map(cell).join(' | ')} | ${sweepCell} | ${invariants.join(', ') || '—'} (${r.seeds.every((s) => !s.found || s.named) ? 'yes' : 'not at every seed'}) | ${shrunk} | ${r.handMinimal ? `${r.handMinimal.faults} / ${r.handMinimal.steps}` : '—'} |`);
  }
  const tuned = mine.filter((r) => r.tunedOn);
  if (tuned.length) lines.push('', 'Tuned on since their blind measurement (their first, blind result kept here):', '', ...tuned.map((r) => `- \`${r.name}\`: ${r.tunedOn.what} (${r.tunedOn.since}). Blind result: ${r.tunedOn.blindResult}`));
  const pairs = mine.flatMap((r) => r.seeds);
  const found = pairs.filter((s) => s.found);
  const bySweep = found.filter((s) => s.foundBy === 'fault-free run' || s.foundBy === 'sweep');
  const byPairs = found.filter((s) => s.foundBy === 'pairs');
  const drawn = found.filter((s) => s.foundBy === 'drawn').map((s) => s.drawnRuns).sort((a, b) => a - b);
  // What the Done-when counts: the runs after the sweep, the pairs' and the drawn ones together, of the defects the sweep did not find.
  const afterSweep = found.filter((s) => s.foundBy === 'drawn' || s.foundBy === 'pairs').map((s) => (s.foundBy === 'pairs' ? s.pairs?.runs ?? 0 : (s.pairs?.runs ?? 0) + s.drawnRuns)).sort((a, b) => a - b);
  const allSeeds = mine.filter((r) => r.seeds.every((s) => s.found)).length;
  const shrunkPairs = mine.flatMap((r) => r.seeds.filter((s) => s.shrunk && r.handMinimal).map((s) => within(s.shrunk, r.handMinimal)));
  lines.push('', `${allSeeds} of ${mine.length} found at every seed${tuned.length ? ` (${tuned.length} of them tuned on since their blind measurement, whose results are above)` : ''}; ${found.length} of ${pairs.length} (defect, seed) pairs found: ${bySweep.length} by the fault-free run or the sweep, ${byPairs.length} by the two-fault pairs (both the same at every seed), ${drawn.length} by drawn runs after the sweep and the pairs (median ${drawn.length ? drawn[Math.floor((drawn.length - 1) / 2)] : '—'}, worst ${drawn.at(-1) ?? '—'} drawn runs); runs after the sweep, the pairs' and the drawn together, where the sweep did not find it: median ${afterSweep.length ? afterSweep[Math.floor((afterSweep.length - 1) / 2)] : '—'}, worst ${afterSweep.at(-1) ?? '—'}. Shrunk within one fault and 10% of the steps of the hand-minimal scenario: ${shrunkPairs.filter(Boolean).length} of ${shrunkPairs.length} counterexamples.`);
  return lines.join('\n');
}

const previous = existsSync(join(OUT, 'detection.json')) ? JSON.parse(readFileSync(join(OUT, 'detection.json'), 'utf8')) : { rows: [] };
let entries = [...(onlyCorpus === 'blind' ? [] : mutants()), ...(onlyCorpus === 'tuned' ? [] : blind())];
if (names) entries = entries.filter((e) => names.includes(e.name));
// --render: writes detection.md again from detection.json's rows (the measured commit kept), measuring nothing.
const RENDER = args.includes('--render');
if (RENDER && previous.seeds) SEEDS.splice(0, SEEDS.length, ...previous.seeds);
const measured = RENDER ? [] : await measure(entries);
const rows = [...previous.rows.filter((r) => !measured.some((m) => m.corpus === r.corpus && m.name === r.name)), ...measured];
const order = (r) => (r.corpus === 'tuned' ? 0 : 1);
rows.sort((a, b) => order(a) - order(b));
const commit = RENDER && previous.commit ? previous.commit : spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
mkdirSync(OUT, { recursive: true });
writeDurably(join(OUT, 'detection.json'), `${JSON.stringify({ about: 'Written by node properties/detection/measure.mjs: a default check (single-fault sweep, two-fault pairs, then 1,000 drawn runs) of every journal of both corpora at each seed.', commit, seeds: SEEDS, rows }, null, 2)}\n`);
writeDurably(join(OUT, 'detection.md'), `# What a default check finds, per corpus

Written by \`node properties/detection/measure.mjs\` (durasim ${commit}). Each journal is checked as a user checks it: \`npx durasim check --journal <j> --seed S --workers 1\`, the default budget (the single-fault sweep of the task's fault-free run, then the two-fault pairs on their bound, then 1,000 drawn runs), with the families or config the journal needs, an empty regression folder each time. Seeds after the first are run only for the journals whose first seed's finding (or none) came from the drawn runs: the fault-free run, the sweep and the pairs draw nothing from the seed, so a finding of theirs is the same at every seed, and such a cell says \"(seed 1's)\" (\`--all-seeds\` runs every seed). A cell says what found the defect at that seed: the fault-free run itself, the sweep (its runs; the sweep does not depend on the seed), the two-fault pairs (their runs after the sweep; nor do they), or the drawn runs after the sweep and the pairs (how many). "not found": clean within the budget. The tuned corpus is the one the generator was tuned on; the blind corpus was written down before any measurement and never tuned on (properties/blind/README.md).

## Tuned corpus: the built-in mutants

${table(rows, 'tuned')}

## Blind corpus

${table(rows, 'blind')}
`);
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(`wrote ${join(OUT, 'detection.json')} and ${join(OUT, 'detection.md')}\n`);
