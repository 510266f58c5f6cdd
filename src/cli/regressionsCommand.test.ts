/**
 * durasim regressions: list the corpus (journal, file, invariants, fault families, age and whence
 * the age), and prune it by journal, family and age — durably, each deletion printed, or only said
 * with --dry-run.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DAY = 86_400_000;
let dir = '';
let root = '';
let out: string[] = [];
let err: string[] = [];
const files = { old: '', fresh: '', legacy: '' };

/** A regression file of `journal` with the faults of a committed one, and its regression block. */
function store(journal: string, name: string, from: string, regression: Record<string, unknown>): string {
  const file = join(root, journal, name);
  mkdirSync(join(root, journal), { recursive: true });
  const scenario = JSON.parse(readFileSync(join(ROOT, from), 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...scenario, regression: { journal, ...regression } }, null, 2));
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-regressions-'));
  root = join(dir, 'regressions');
  out = [];
  err = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  // A torn-tail crash (disk), saved long ago; a concurrent call, saved now; a response fault in a file that records no date, last written 40 days ago.
  files.old = store('torn-tail-fatal', '5c7d6fe8baad79b2.json', 'reports/regressions/torn-tail-fatal/5c7d6fe8baad79b2.json', { invariants: ['convergence'], savedAt: '2020-01-31T10:00:00.000Z' });
  files.fresh = store('torn-tail-fatal', 'c1a1m000000000aa.json', 'reports/mutants/minimal/claim-after-lease.json', { invariants: ['single-flight'], savedAt: new Date().toISOString() });
  files.legacy = store('trust-any-receipt', 'b1a8db8f58fb06b9.json', 'reports/regressions/trust-any-receipt/b1a8db8f58fb06b9.json', { invariants: ['truthful-outcome'] });
  const fortyDaysAgo = new Date(Date.now() - 40 * DAY);
  utimesSync(files.legacy, fortyDaysAgo, fortyDaysAgo);
});
afterEach(() => vi.restoreAllMocks());

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
const today = (): string => new Date().toISOString().slice(0, 10);
const fortyDaysAgo = (): string => new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10);

describe('durasim regressions list', () => {
  test('shows each stored regression: file, journal, invariants, fault families, and its age from the date saved, or the file time when it records none', async () => {
    expect(await run('regressions', '--regressions', root)).toBe(0);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatch(new RegExp(`^${files.old} · journal torn-tail-fatal · convergence · families disk · \\d{4} days old \\(saved 2020-01-31\\)$`));
    expect(out[1]).toMatch(new RegExp(`^${files.fresh} · journal torn-tail-fatal · single-flight · families concurrent · \\d+ min old \\(saved ${today()}\\)$`));
    expect(out[2]).toBe(`${files.legacy} · journal trust-any-receipt · truthful-outcome · families response · 40 days old (file time ${fortyDaysAgo()}; no savedAt recorded)`);
    expect(out[3]).toBe(`3 stored regressions in ${root}, of 2 journals`);
  });

  test('--journal (a name, or a module whose adapter name is read), --family and --older-than choose which', async () => {
    expect(await run('regressions', 'list', '--regressions', root, '--journal', 'trust-any-receipt')).toBe(0);
    expect(out).toEqual([expect.stringMatching(new RegExp(`^${files.legacy} `)), `1 of 3 stored regressions in ${root} (journal trust-any-receipt), of 1 journal`]);
    out = [];
    const module = relative(process.cwd(), join(ROOT, 'src/journals/mutants/tornTailFatal.ts'));
    expect(await run('regressions', 'list', '--regressions', root, '--journal', module)).toBe(0);
    expect(out.at(-1)).toBe(`2 of 3 stored regressions in ${root} (journal torn-tail-fatal), of 1 journal`);
    out = [];
    expect(await run('regressions', 'list', '--regressions', root, '--family', 'concurrent,response')).toBe(0);
    expect(out.slice(0, -1).map((line) => line.split(' · ')[0])).toEqual([files.fresh, files.legacy]);
    out = [];
    expect(await run('regressions', 'list', '--regressions', root, '--older-than', '30d', '--journal', 'torn-tail-fatal')).toBe(0);
    expect(out.map((line) => line.split(' · ')[0])).toEqual([files.old, `1 of 3 stored regressions in ${root} (journal torn-tail-fatal`]);
  });
});

test('--help prints its usage', async () => {
  expect(await run('regressions', '--help')).toBe(0);
  expect(out.join('\n')).toMatch(/^usage:\n {2}durasim regressions \[list\|prune\] \[--regressions <dir>\] \[--journal <name\|module>\] \[--family a,b\]\n {18}\[--older-than 30d\] \[--dry-run\]\n/);
});

describe('durasim regressions prune', () => {
  test('--family deletes those that use it, durably, printing each; the rest stay', async () => {
    expect(await run('regressions', 'prune', '--regressions', root, '--family', 'disk')).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^deleted ${files.old} · journal torn-tail-fatal · convergence · families disk · `));
    expect(out[1]).toBe(`deleted 1 of 3 stored regressions in ${root} (families disk)`);
    expect(existsSync(files.old)).toBe(false);
    expect(existsSync(files.fresh) && existsSync(files.legacy)).toBe(true);
  });

  test('--older-than with --dry-run says what it would delete, and deletes nothing', async () => {
    expect(await run('regressions', 'prune', '--regressions', root, '--older-than', '30d', '--dry-run')).toBe(0);
    expect(out.slice(0, 2).map((line) => line.split(' · ')[0])).toEqual([`would delete ${files.old}`, `would delete ${files.legacy}`]);
    expect(out[2]).toBe(`would delete 2 of 3 stored regressions in ${root} (older than 30 days): a dry run, nothing deleted`);
    for (const file of Object.values(files)) expect(existsSync(file)).toBe(true);
  });

  test('--journal deletes that journal\'s, and its folder once empty', async () => {
    expect(await run('regressions', 'prune', '--regressions', root, '--journal', 'trust-any-receipt')).toBe(0);
    expect(out.at(-1)).toBe(`deleted 1 of 3 stored regressions in ${root} (journal trust-any-receipt)`);
    expect(readdirSync(root)).toEqual(['torn-tail-fatal']);
  });

  test('a prune with no filter is refused, as is a list with --dry-run: exit 2, nothing deleted', async () => {
    expect(await run('regressions', 'prune', '--regressions', root)).toBe(2);
    expect(err.join('')).toBe('Failed to read the command line: prune needs a filter, or it would delete every stored regression. Name what to prune with --journal, --family or --older-than, e.g. durasim regressions prune --family concurrent --dry-run.\n');
    err = [];
    expect(await run('regressions', 'list', '--dry-run', '--regressions', root)).toBe(2);
    expect(err.join('')).toBe('Failed to read the command line: --dry-run goes with prune: list deletes nothing. Run durasim regressions prune … --dry-run.\n');
    err = [];
    expect(await run('regressions', 'purge', '--regressions', root)).toBe(2);
    expect(err.join('')).toBe('Failed to read the command line: regressions takes list or prune, found "purge". Run durasim regressions list, or durasim regressions prune --family <f> (durasim regressions --help).\n');
    for (const file of Object.values(files)) expect(existsSync(file)).toBe(true);
  });

  test('a check after pruning replays only what is left', async () => {
    expect(await run('regressions', 'prune', '--regressions', root, '--family', 'disk,concurrent')).toBe(0);
    out = [];
    expect(await run('check', '--no-sweep', '--journal', 'torn-tail-fatal', '--faults', 'crash,disk,concurrent', '--runs', '1', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', root, '--no-progress', '--no-real-restart')).toBe(0);
    expect(out.join('\n')).not.toContain('stored regression');
  });
});
