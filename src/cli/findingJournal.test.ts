/**
 * replay, explain and confirm run the journal a finding's file records, never the reference in
 * silence: --journal, else the config's journal, else the recorded module or bundled name; a
 * recorded module that is gone is exit 2; another journal than the recorded one is said in a
 * warning before the verdict. And every file durasim writes for a finding records its journal.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir = '';
let out: string[] = [];
let err: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-finding-'));
  out = [];
  err = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
/** send-before-dispatched's hand-minimal scenario (no fault: the reference passes it, the mutant fails it), with `extra` fields. */
const minimal = JSON.parse(readFileSync(join(ROOT, 'reports/mutants/minimal/send-before-dispatched.json'), 'utf8')) as Record<string, unknown>;
function finding(name: string, extra: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ ...minimal, ...extra }, null, 2));
  return file;
}
const recordsMutant = () => finding('mutant.json', { journal: { name: 'send-before-dispatched', module: 'send-before-dispatched' } });
const verdictAt = (): number => out.findIndex((line) => line.startsWith('verdict: '));

describe('the journal a finding records', () => {
  test('replay of a file that records a bundled mutant runs that mutant without --journal (the reference said clean, exit 0)', async () => {
    const file = recordsMutant();
    expect(await run('replay', file, '--workers', '1')).toBe(1);
    expect(out[0]).toBe(`journal: send-before-dispatched (recorded in ${file})`);
    expect(out).toContain(`replay of ${file} · journal send-before-dispatched · trace ${out.find((l) => l.includes(' · trace '))?.split(' · trace ')[1]}`);
    expect(out[verdictAt()]).toBe('verdict: 1 violation(s)');
  });

  test('explain of that file explains the mutant, and fails', async () => {
    expect(await run('explain', recordsMutant(), '--workers', '1')).toBe(1);
    expect(out.join('\n')).toContain('write-ahead');
    expect(out.join('\n')).toContain('journal send-before-dispatched');
  });

  test('confirm of that file confirms the mutant in real processes (the reference was both clean, exit 0)', async () => {
    const file = recordsMutant();
    expect(await run('confirm', file)).toBe(1);
    expect(out[0]).toBe(`journal: send-before-dispatched (recorded in ${file})`);
    expect(out[1]).toMatch(/^confirm .* · journal send-before-dispatched · /);
    expect(out.join('\n')).toMatch(/^verdict: confirmed — the same violations in real processes/m);
  });

  test('a regression saved before modules were recorded runs the bundled journal its regression block names', async () => {
    expect(await run('replay', finding('old.json', { regression: { journal: 'send-before-dispatched', invariants: ['write-ahead'] } }), '--workers', '1')).toBe(1);
    expect(out[0]).toMatch(/^journal: send-before-dispatched \(recorded in .*old\.json\)$/);
  });

  test('a recorded module path is run, relative to the working folder', async () => {
    const module = relative(process.cwd(), join(ROOT, 'src/journals/mutants/sendBeforeDispatched.ts'));
    const file = finding('path.json', { journal: { name: 'send-before-dispatched', module } });
    expect(await run('replay', file, '--workers', '1')).toBe(1);
    expect(out[0]).toBe(`journal: ${module} (recorded in ${file})`);
    expect(out[verdictAt()]).toBe('verdict: 1 violation(s)');
  });

  test("the config's journal wins over the recorded one, with a warning before the verdict that summary.json carries", async () => {
    const config = join(dir, 'durasim.config.json');
    writeFileSync(config, JSON.stringify({ journal: join(ROOT, 'examples/node-journal/journal.ts') }));
    const file = recordsMutant();
    expect(await run('replay', file, '--config', config, '--workers', '1', '--report-dir', join(dir, 'report'))).toBe(0);
    const shown = relative(process.cwd(), join(ROOT, 'examples/node-journal/journal.ts'));
    expect(out[0]).toBe(`journal: ./${shown} (the journal of ${config})`);
    const warning = `warning: ${file} was found with the journal "send-before-dispatched", and this runs "node-journal" (the config's journal ./${shown}): its verdict says nothing about "send-before-dispatched"`;
    expect(out[1]).toBe(warning);
    expect(out[verdictAt()]).toBe('verdict: no violation');
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { warnings?: string[] };
    expect(summary.warnings).toEqual([warning]);
    expect(readFileSync(join(dir, 'report', 'report.md'), 'utf8')).toContain(`- **${warning}**`);
  });

  test('--journal naming another journal runs it, after the warning', async () => {
    const file = recordsMutant();
    expect(await run('replay', file, '--journal', 'reference', '--workers', '1')).toBe(0);
    const warning = out.indexOf(`warning: ${file} was found with the journal "send-before-dispatched", and this runs "reference" (--journal reference): its verdict says nothing about "send-before-dispatched"`);
    expect(warning).toBe(0);
    expect(verdictAt()).toBeGreaterThan(warning);
  });

  test('--journal naming the recorded journal runs it with no warning', async () => {
    expect(await run('replay', recordsMutant(), '--journal', 'send-before-dispatched', '--workers', '1')).toBe(1);
    expect(out.filter((line) => line.startsWith('warning') || line.startsWith('journal: '))).toEqual([]);
  });

  test('--journal naming another module of the same adapter name (the journal moved, or fixed in a copy) is the same journal: no warning', async () => {
    const module = relative(process.cwd(), join(ROOT, 'src/journals/mutants/sendBeforeDispatched.ts'));
    expect(await run('replay', recordsMutant(), '--journal', module, '--workers', '1')).toBe(1);
    expect(out.filter((line) => line.startsWith('warning') || line.startsWith('journal: '))).toEqual([]);
  });

  test('a recorded module that no longer exists is exit 2, naming the path and the fix', async () => {
    const file = finding('gone.json', { journal: { name: 'my-journal', module: './gone/my-journal.ts' } });
    expect(await run('replay', file)).toBe(2);
    expect(err.join('')).toBe(`Failed to choose the journal: ${file} was found with the journal "my-journal" of ./gone/my-journal.ts, and there is no file at ${resolve('gone/my-journal.ts')}. Pass --journal <module> naming where "my-journal" is now (the path is relative to the folder the finding was made in).\n`);
    expect(out).toEqual([]);
    err = [];
    expect(await run('confirm', file)).toBe(2);
    expect(err.join('')).toContain('Failed to choose the journal: ');
  });

  test('an old regression of a journal that is not bundled is exit 2: it records no module', async () => {
    const file = finding('throws-once.json', { regression: { journal: 'throws-once', invariants: ['journal-error'] } });
    expect(await run('explain', file)).toBe(2);
    expect(err.join('')).toBe(`Failed to choose the journal: ${file} was saved for the journal "throws-once", which is not a bundled journal, and it records no module. Pass --journal <module> naming the module of "throws-once".\n`);
  });

  test('a file that records nothing runs the reference, and says so on its own line', async () => {
    const file = finding('bare.json', {});
    expect(await run('replay', file, '--workers', '1')).toBe(0);
    expect(out[0]).toBe(`journal: reference (the default: ${file} records no journal; pass --journal <module> to run yours)`);
  });

  test('a malformed journal record is refused as a scenario field', async () => {
    expect(await run('replay', finding('bad.json', { journal: 'send-before-dispatched' }))).toBe(2);
    expect(err.join('')).toContain('Failed to load scenario: journal must be an object { "name", "module" }');
  });
});

describe('what durasim writes for a finding records the journal', () => {
  test("check's counterexample.json and regression file, and a replay of the counterexample as printed, run that journal", async () => {
    const regressions = join(dir, 'regressions');
    expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--runs', '20', '--seed', '5', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', regressions, '--no-progress')).toBe(1);
    const counterexample = JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(counterexample).slice(0, 4)).toEqual(['$schema', 'format', 'version', 'journal']);
    expect(counterexample.journal).toEqual({ name: 'send-before-dispatched', module: 'send-before-dispatched' });
    const [stored] = readdirSync(join(regressions, 'send-before-dispatched'));
    const regression = JSON.parse(readFileSync(join(regressions, 'send-before-dispatched', stored as string), 'utf8')) as { journal: unknown; regression: { journal: string; savedAt: string } };
    expect(regression.journal).toEqual({ name: 'send-before-dispatched', module: 'send-before-dispatched' });
    expect(regression.regression.journal).toBe('send-before-dispatched');
    expect(Number.isNaN(Date.parse(regression.regression.savedAt))).toBe(false);
    out = [];
    expect(await run('replay', join(dir, 'report', 'counterexample.json'), '--workers', '1')).toBe(1);
  });

  test('a module path is recorded as the user named it', async () => {
    const module = relative(process.cwd(), join(ROOT, 'src/journals/mutants/sendBeforeDispatched.ts'));
    expect(await run('check', '--no-sweep', '--journal', module, '--runs', '20', '--seed', '5', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress')).toBe(1);
    expect((JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { journal: unknown }).journal).toEqual({ name: 'send-before-dispatched', module });
  });
});
