#!/usr/bin/env node
// npm run attacks: runs every probe journal in properties/attacks/probes.json through `durasim check` twice, each time
// in a fresh temporary working folder, and says per probe whether durasim refused it, served it, caught it
// by a re-run, reported the journal's finding, or let it through in silence (lib/classify.mjs). Prints a
// table per class and in all, and writes properties/attacks/results.json.
//
//   node properties/attacks/run.mjs [--only <text>] [--keep]
//     --only  run the probes whose id contains the text (results go to the temp folder, not properties/attacks/)
//     --keep  leave the temp folder (canaries, work folders, reports, logs) for a look
//
// Around each run: a canary folder per probe (ATTACK_DIR: must stay empty), a bait folder whose token only
// a real read can see, a TCP and a UDP canary on 127.0.0.1, the work folder (only report/ and
// regressions/ may appear), the probes' own tree (must not change), and leftover processes in the run's
// process group. durasim runs under umask 027, TZ=Pacific/Chatham, LANG=de_DE.UTF-8 and a TMPDIR of the
// runner's, and every probe gets the real machine's facts as ATTACK_REAL_* (its oracles), both in the real
// environment and with --env; ATTACK_REAL_ONLY is only in the real one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLASSES, manifestText } from './manifest.mjs';
import { staleBases } from './lib/bases.mjs';
import { classify, OUTCOMES } from './lib/classify.mjs';
import { makeBait, realClock, realFacts, REAL_LANG, REAL_TZ, REAL_UMASK, startNetCanaries } from './lib/realMachine.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = dirname(dirname(here));
const bin = join(repo, 'bin', 'durasim.mjs');
const WATCHDOG_MS = 120_000;
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const keep = args.includes('--keep');

const manifestFile = join(here, 'probes.json');
if (readFileSync(manifestFile, 'utf8') !== manifestText()) {
  console.error('properties/attacks/probes.json differs from the probes\' headers: run node properties/attacks/manifest.mjs first');
  process.exit(2);
}
const stale = staleBases();
if (stale.length > 0) {
  console.error(`properties/attacks/lib/${stale.join(', ')} differ from examples/node-journal: run node properties/attacks/lib/bases.mjs first`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const probes = manifest.probes.filter((p) => only === undefined || p.id.includes(only));

const root = mkdtempSync(join(tmpdir(), 'durasim-attacks-'));
const durasimTmp = join(root, 'tmpdir');
mkdirSync(durasimTmp);
const bait = makeBait(root);
const net = await startNetCanaries();
const facts = {
  ...realFacts({ repo, bin, tmpdir: durasimTmp }),
  ATTACK_BAIT: bait.dir,
  ATTACK_BAIT_TOKEN: bait.token,
  ATTACK_PORT: String(net.tcpPort),
  ATTACK_UDP_PORT: String(net.udpPort),
  ATTACK_NET_TOKEN: net.token,
};

/** Every file under a folder, with size and mtime, as one comparable text. */
function tree(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).sort().map((name) => {
    const s = statSync(join(dir, name), { throwIfNoEntry: false });
    return `${name}${s?.isDirectory() ? '/' : ` ${s?.size}:${s?.mtimeMs}`}`;
  });
}

/** Processes of a process group still alive (not zombies: durasim's esbuild helper ends as one, unreaped here). */
function liveInGroup(pgid) {
  const live = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat;
    try { stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') live.push(`${pid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`);
  }
  return live;
}

function runOnce(probe, work, env) {
  const file = join(here, probe.file);
  const flags = Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
  // The simulated world's promise is what the probes try; a clean check's real restarts (its default) run the probe in real
  // processes, where what it does is real by design: they would touch the canaries the simulation served and read as escapes.
  const argv = [process.execPath, bin, 'check', '--no-sweep', '--no-real-restart', '--journal', file, '--runs', '5', '--seed', '1', '--workers', '1', '--no-progress', '--report-dir', 'report', '--regressions', 'regressions', ...flags];
  const script = `umask ${REAL_UMASK.toString(8).padStart(3, '0')}; export ATTACK_REAL_PID=$$; exec "$0" "$@" --env ATTACK_REAL_PID=$$`;
  return new Promise((done) => {
    const child = spawn('/bin/sh', ['-c', script, ...argv], {
      cwd: work,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, ATTACK_REAL_ONLY: 'real-env-only', NO_COLOR: '1', TZ: REAL_TZ, LANG: REAL_LANG, LC_ALL: REAL_LANG, TMPDIR: durasimTmp },
    });
    let output = '';
    let dropped = 0;
    const take = (chunk) => {
      if (output.length < 1_000_000) output += chunk.toString('utf8');
      else dropped += chunk.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const watchdog = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, WATCHDOG_MS);
    const started = Date.now();
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      const leftover = liveInGroup(child.pid);
      if (leftover.length) try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      done({ code, signal, timedOut, leftover, output: dropped ? `${output}\n[${dropped} more bytes of output not kept]` : output, wallMs: Date.now() - started });
    });
  });
}

function readReport(work) {
  const dir = join(work, 'report');
  const summaryFile = join(dir, 'summary.json');
  let summary;
  try { summary = JSON.parse(readFileSync(summaryFile, 'utf8')); } catch {}
  const texts = existsSync(dir) ? readdirSync(dir).filter((f) => statSync(join(dir, f)).size < 20_000_000).map((f) => readFileSync(join(dir, f), 'utf8')) : [];
  return { summary, texts };
}

const LEAK = /ATTACK-LEAK [^\n"\\$:]{1,80}: [^\n"\\$]{1,120}/;
/** The output's lines worth keeping in results.json: not blank, not the list of invariants judged, each cut at 300 characters. */
const lines = (text) => text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('judged by')).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
const probesTree = () => tree(join(here, 'probes')).concat(tree(join(here, 'lib'))).join('\n');
const baitTree = () => tree(bait.dir).join('\n');

const results = [];
const startedAt = new Date().toISOString();
for (const [index, probe] of probes.entries()) {
  const slug = probe.id.replace('/', '--');
  const canaryDir = join(root, 'canary', slug);
  mkdirSync(canaryDir, { recursive: true });
  const work = join(root, 'work', slug);
  const env = { ...facts, ...realClock(), ATTACK_DIR: canaryDir, ATTACK_REAL_CWD: work };
  const effects = new Set();
  const leaks = new Set();
  const runs = [];
  const [probesBefore, baitBefore] = [probesTree(), baitTree()];
  for (let i = 0; i < 2; i++) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    net.take();
    const run = await runOnce(probe, work, env);
    const { summary, texts } = readReport(work);
    const leak = [run.output, ...texts].map((t) => LEAK.exec(t)?.[0]).find(Boolean);
    if (leak) leaks.add(leak.trim());
    for (const hit of net.take()) effects.add(`network canary: ${hit}`);
    const stray = readdirSync(work).filter((f) => f !== 'report' && f !== 'regressions');
    if (stray.length) effects.add(`stray files in the working folder: ${stray.join(', ')}`);
    if (run.leftover.length) effects.add(`processes left running in its process group: ${run.leftover.join(', ')}`);
    const out = lines(run.output);
    runs.push({ ...run, summary, head: out.slice(0, 12), tail: out.slice(-3) });
    writeFileSync(join(root, `${slug}.${i + 1}.log`), run.output);
  }
  await new Promise((done) => setTimeout(done, 1500)); // a child that escaped may write a moment later
  const canary = tree(canaryDir);
  if (canary.length) effects.add(`canary folder not empty: ${canary.join(', ')}`);
  for (const hit of net.take()) effects.add(`network canary: ${hit}`);
  if (probesTree() !== probesBefore) effects.add('the probes\' own folder changed');
  if (baitTree() !== baitBefore) effects.add('the bait folder changed');
  const verdict = classify(probe, runs, [...effects], [...leaks]);
  // Against the expectation as first written, for a probe whose expectation was revised after a run.
  const first = probe.firstExpected ? classify({ ...probe, expected: probe.firstExpected }, runs, [...effects], [...leaks]) : verdict;
  results.push({
    id: probe.id, class: probe.class, expected: probe.expected, ...verdict,
    ...(probe.firstExpected ? { firstExpected: probe.firstExpected, atFirst: { outcome: first.outcome, why: first.why, matches: first.matches } } : {}),
    ...(probe.limit ? { limit: probe.limit } : {}),
    runs: runs.map((r) => ({ exitCode: r.code, signal: r.signal ?? undefined, timedOut: r.timedOut || undefined, wallMs: r.wallMs, head: r.head, tail: r.tail, sandbox: r.summary?.sandbox, verdict: r.summary?.verdict })),
  });
  const codes = runs.map((r) => (r.timedOut ? 'killed' : r.signal ?? r.code)).join('/');
  console.log(`[${index + 1}/${probes.length}] ${probe.id}: ${verdict.outcome}${verdict.matches ? '' : ` (expected ${probe.expected})`} · exit ${codes} · ${verdict.why}`);
}
await net.close();

// Tables: per class and in all.
const count = (rows) => Object.fromEntries(OUTCOMES.map((o) => [o, rows.filter((r) => r.outcome === o).length]));
const table = [['class', ...OUTCOMES, 'as expected', 'probes']];
for (const cls of Object.keys(CLASSES)) {
  const rows = results.filter((r) => r.class === cls);
  if (rows.length) table.push([cls, ...Object.values(count(rows)), rows.filter((r) => r.matches).length, rows.length]);
}
table.push(['all', ...Object.values(count(results)), results.filter((r) => r.matches).length, results.length]);
const atFirst = results.map((r) => ({ ...r, ...(r.atFirst ?? {}) }));
table.push(['all, as first expected', ...Object.values(count(atFirst)), atFirst.filter((r) => r.matches).length, results.length]);
const widths = table[0].map((_, c) => Math.max(...table.map((row) => String(row[c]).length)));
console.log('');
for (const row of table) console.log(row.map((cell, c) => String(cell).padEnd(widths[c])).join('  '));
const revised = results.filter((r) => r.firstExpected);
if (revised.length) {
  console.log(`\nexpectations revised after a run (${revised.length}; the last row counts them as first written):`);
  for (const r of revised) console.log(`  ${r.id}: ${r.atFirst.outcome} as first expected (${r.firstExpected}), ${r.outcome} as revised (${r.expected})`);
}
const silent = results.filter((r) => r.outcome === 'silent');
if (silent.length) {
  console.log(`\nsilent (${silent.length}):`);
  for (const r of silent) console.log(`  ${r.id} (expected ${r.expected}${r.limit ? '; a documented limit' : ''}): ${r.why}`);
}
const unnamed = results.filter((r) => r.namesApi === false);
if (unnamed.length) console.log(`\nrefused without naming the API: ${unnamed.map((r) => r.id).join(', ')}`);

const report = {
  startedAt,
  finishedAt: new Date().toISOString(),
  command: 'node bin/durasim.mjs check --no-sweep --no-real-restart --journal <probe> --runs 5 --seed 1 --workers 1 --no-progress --report-dir report --regressions regressions --env ATTACK_*=… (twice, each in a fresh working folder)',
  node: process.version,
  commit: spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim() || undefined,
  totals: count(results),
  byClass: Object.fromEntries(Object.keys(CLASSES).map((cls) => [cls, count(results.filter((r) => r.class === cls))])),
  asExpected: results.filter((r) => r.matches).length,
  atFirstExpectations: { totals: count(atFirst), asExpected: atFirst.filter((r) => r.matches).length, revised: revised.length },
  probes: results,
};
const out = only === undefined ? join(here, 'results.json') : join(root, 'results.json');
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nresults: ${relative(process.cwd(), out) || out}`);
if (keep) console.log(`kept: ${root}`);
else rmSync(root, { recursive: true, force: true });
