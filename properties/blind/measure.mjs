#!/usr/bin/env node
/**
 * Measures the blind corpus (properties/blind/corpus.json): for every defective journal,
 *
 *   - `durasim check --journal <j> --runs 5000 --seed S --workers 1 --no-progress` at seeds 1, 2, 3
 *     (`--faults` the families of a journal called one at a time, with `concurrent` added where the
 *     entry says the journal serves concurrent calls, and
 *     `--config` where it speaks its own API), each with a fresh, empty regression folder so no
 *     seed replays another's counterexample first: the runs to the first detection (the "N runs"
 *     line), the invariants of the shrunk counterexample, and whether the one named in the entry
 *     (or one it lists as the same defect's other face) is among them;
 *   - `durasim explore --journal <j>` once (same faults and config): whether the depth-1 sweep
 *     finds it, and which invariants;
 *   - a replay of the entry's hand-minimal scenario and of the fault-free scenario (cheap; what the
 *     corpus's notes say about them, checked again).
 *
 * Writes properties/blind/results.json and properties/blind/results.md. The first result of each defect is never
 * rewritten: run again (after fixing a journal, say) and the new result is appended to that
 * defect's list, marked with its attempt number and `--note`, and the table shows both.
 *
 *   node properties/blind/measure.mjs                       # every entry not measured yet
 *   node properties/blind/measure.mjs --only a,b --note "journal a fixed: …"   # measure a and b again (appended)
 *   BLIND_OUT=/tmp/x BLIND_RUNS=20 node properties/blind/measure.mjs --only a   # try the script itself, elsewhere
 *
 * It is slow (minutes per journal that durasim does not find): run it in the background.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const rel = (path) => relative(ROOT, path);
const CORPUS = join(ROOT, 'properties', 'blind', 'corpus.json');
// BLIND_OUT and BLIND_RUNS exist to try this script itself on a small budget elsewhere; the measurement uses neither.
const OUT = process.env.BLIND_OUT ?? join(ROOT, 'properties', 'blind');
const RESULTS = join(OUT, 'results.json');
const TABLE = join(OUT, 'results.md');
const SEEDS = [1, 2, 3];
const RUNS = Number(process.env.BLIND_RUNS ?? 5000);
const DEFAULT_FAULTS = ['crash', 'disk', 'io', 'response', 'duplicate', 'user', 'service-restart', 'intent', 'store', 'failure'];
/** A guard against a hung child, never a measurement. */
const GUARD_MS = 60 * 60 * 1000;

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const only = flag('--only')?.split(',');
const note = flag('--note');

const corpus = JSON.parse(readFileSync(CORPUS, 'utf8'));
const previous = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : { entries: [] };
const scratch = mkdtempSync(join(tmpdir(), 'durasim-blind-'));

function durasim(argv) {
  const started = Date.now();
  const child = spawnSync('npx', ['durasim', ...argv], { cwd: ROOT, encoding: 'utf8', timeout: GUARD_MS, maxBuffer: 256 * 1024 * 1024 });
  return { code: child.status, signal: child.signal, out: `${child.stdout ?? ''}${child.stderr ?? ''}`, wallMs: Date.now() - started };
}
const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
const codesOf = (violations) => [...new Set((violations ?? []).map((v) => v.code))];

/** How an entry's expectation meets what durasim reported. */
function named(entry, codes) {
  if (codes.includes(entry.invariant)) return 'yes';
  if (codes.some((c) => entry.alsoAcceptable.includes(c))) return 'same defect, other invariant';
  return codes.length === 0 ? 'not found' : 'no';
}

function shapeArgs(entry) {
  const out = ['--journal', entry.journal];
  if (entry.config) out.push('--config', entry.config);
  // Named in full: since c3d9c1a the default families include concurrent calls, which a journal the
  // corpus says is called one at a time (concurrent: false, written before any run) never meets.
  out.push('--faults', (entry.concurrent ? [...DEFAULT_FAULTS, 'concurrent'] : DEFAULT_FAULTS).join(','));
  return out;
}

function check(entry, seed) {
  const dir = join(scratch, entry.name, `check-${seed}`);
  const run = durasim(['check', ...shapeArgs(entry), '--runs', String(RUNS), '--seed', String(seed), '--workers', '1', '--no-progress', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')]);
  const summary = readJson(join(dir, 'report', 'summary.json'));
  const line = /^(\d[\d,]*) runs? in /m.exec(run.out);
  const runsLine = line ? Number(line[1].replaceAll(',', '')) : undefined;
  const found = run.code === 1 || run.code === 3;
  const codes = found ? codesOf(summary?.violations) : [];
  return {
    seed,
    exitCode: run.code,
    found,
    runsToDetection: found ? (runsLine ?? summary?.runsExecuted ?? null) : null,
    runsExecuted: summary?.runsExecuted ?? runsLine ?? null,
    invariants: codes,
    named: found ? named(entry, codes) : 'not found',
    counterexampleFaults: summary?.counterexampleFaults ?? null,
    faultFree: summary?.faultFree ?? null,
    violations: (summary?.violations ?? []).map((v) => `${v.code} [${v.key}]: ${v.actual}`.slice(0, 400)),
    wallMs: run.wallMs,
    ...(run.code !== 0 && !found ? { output: run.out.slice(-3000) } : {}),
  };
}

function explore(entry) {
  const dir = join(scratch, entry.name, 'explore');
  const run = durasim(['explore', ...shapeArgs(entry), '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions')]);
  const coverage = readJson(join(dir, 'report', 'coverage.json'));
  const codes = {};
  for (const row of coverage?.rows ?? []) {
    if (row.kind === 'all') continue;
    for (const [code, n] of Object.entries(row.codes ?? {})) codes[code] = (codes[code] ?? 0) + n;
  }
  const found = run.code === 1 || run.code === 3;
  return {
    exitCode: run.code,
    found,
    invariants: codes,
    named: found ? named(entry, Object.keys(codes)) : 'not found',
    runs: coverage?.runs ?? null,
    states: coverage?.states ?? null,
    failingStates: (coverage?.rows ?? []).filter((r) => r.kind !== 'all').reduce((n, r) => n + (r.failing ?? 0), 0),
    wallMs: run.wallMs,
    ...(run.code !== 0 && !found ? { output: run.out.slice(-3000) } : {}),
  };
}

function replay(entry, scenario, label) {
  const dir = join(scratch, entry.name, label);
  const run = durasim(['replay', scenario, ...(entry.config ? ['--config', entry.config] : []), '--journal', entry.journal, '--report-dir', dir]);
  const summary = readJson(join(dir, 'summary.json'));
  const codes = codesOf(summary?.violations);
  return { exitCode: run.code, invariants: codes, named: named(entry, codes) };
}

const entries = [...previous.entries];
for (const entry of corpus.entries) {
  const before = entries.find((e) => e.name === entry.name);
  if (before && !(only ?? []).includes(entry.name)) continue;
  if (only && !only.includes(entry.name)) continue;
  process.stderr.write(`measuring ${entry.name}\n`);
  const result = {
    attempt: (before?.results.length ?? 0) + 1,
    ...(note !== undefined ? { note } : {}),
    measuredAt: new Date().toISOString(),
    durasim: spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
    check: SEEDS.map((seed) => check(entry, seed)),
    explore: explore(entry),
    handMinimal: replay(entry, entry.minimal, 'minimal'),
    faultFree: replay(entry, entry.config ? 'properties/blind/fault-free-payments.json' : 'properties/blind/fault-free.json', 'fault-free'),
  };
  if (before) before.results.push(result);
  else entries.push({ name: entry.name, class: entry.class, expected: entry.invariant, concurrent: entry.concurrent, config: entry.config, results: [result] });
  writeFileSync(RESULTS, `${JSON.stringify({ about: 'Written by properties/blind/measure.mjs. Each defect keeps every result in order; the first (attempt 1) is never rewritten.', runs: RUNS, seeds: SEEDS, entries }, null, 2)}\n`);
}
writeFileSync(TABLE, table(corpus, entries));
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(`wrote ${rel(RESULTS)} and ${rel(TABLE)}\n`);

function cell(c) {
  if (!c.found) return c.exitCode === 0 ? `— (clean at ${RUNS})` : `exit ${c.exitCode}`;
  return `${c.runsToDetection} · ${c.invariants.join(', ')}`;
}
function table(corpusDoc, all) {
  const byName = new Map(corpusDoc.entries.map((e) => [e.name, e]));
  const lines = [
    '# Blind corpus: what durasim found',
    '',
    `Written by \`node properties/blind/measure.mjs\` from properties/blind/results.json. Each defect's journal is properties/blind/journals/<name>.ts; its report, expectation and hand-minimal scenario are in properties/blind/corpus.json (written before any run). \`check\` ran ${RUNS} runs a seed on one worker thread; a cell is the runs to the first failing run and the invariants of the shrunk counterexample, or "—" when the seed's whole budget was clean. "named": whether the expected invariant was among them at every seed that found it (yes), a listed other face of the same defect (same), another invariant (no), or nothing (not found). \`explore\` is the depth-1 sweep of the standard workload (a payments task for the contract worker), with the invariants it broke and in how many states.`,
    '',
    '| defect | class | expected | seed 1 | seed 2 | seed 3 | named | explore | hand-minimal replay | fault-free replay |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const summary = { found: 0, allSeeds: 0, named: 0, explore: 0, total: 0 };
  const order = corpusDoc.entries.map((e) => e.name);
  for (const e of [...all].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))) {
    const entry = byName.get(e.name);
    e.results.forEach((r, i) => {
      const seeds = r.check;
      const foundSeeds = seeds.filter((c) => c.found);
      const namedCell = foundSeeds.length === 0 ? 'not found' : foundSeeds.every((c) => c.named === 'yes') ? 'yes' : foundSeeds.every((c) => c.named !== 'no') ? 'same' : foundSeeds.some((c) => c.named === 'yes') ? 'partly' : 'no';
      const ex = r.explore.found ? Object.entries(r.explore.invariants).map(([k, n]) => `${k} (${n})`).join(', ') || `exit ${r.explore.exitCode}` : r.explore.exitCode === 0 ? 'not found' : `exit ${r.explore.exitCode}`;
      const mark = i === 0 ? '' : ` **(attempt ${r.attempt}${r.note ? `: ${r.note}` : ''})**`;
      lines.push(`| ${e.name}${mark} | ${entry?.class ?? e.class} | ${e.expected}${e.concurrent ? ' (concurrent)' : ''} | ${seeds.map(cell).join(' | ')} | ${namedCell} | ${ex} | exit ${r.handMinimal.exitCode}${r.handMinimal.invariants.length ? ` · ${r.handMinimal.invariants.join(', ')}` : ''} | exit ${r.faultFree.exitCode}${r.faultFree.invariants.length ? ` · ${r.faultFree.invariants.join(', ')}` : ''} |`);
      if (i === 0) {
        summary.total++;
        if (foundSeeds.length > 0) summary.found++;
        if (foundSeeds.length === seeds.length) summary.allSeeds++;
        if (namedCell === 'yes') summary.named++;
        if (r.explore.found) summary.explore++;
      }
    });
  }
  const firsts = all.map((e) => e.results[0]).flatMap((r) => r.check.filter((c) => c.found).map((c) => c.runsToDetection)).sort((a, b) => a - b);
  const median = firsts.length ? firsts[Math.floor((firsts.length - 1) / 2)] : null;
  lines.push(
    '',
    `First results only: ${summary.found} of ${summary.total} defects found by \`check\` at some seed, ${summary.allSeeds} at all three; the expected invariant at every finding seed for ${summary.named}; \`explore\` found ${summary.explore}. Runs to first detection over the (defect, seed) pairs found: median ${median}, worst ${firsts.at(-1) ?? '—'} (${firsts.length} pairs).`,
    '',
  );
  return `${lines.join('\n')}\n`;
}
