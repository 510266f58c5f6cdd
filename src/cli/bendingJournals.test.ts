/**
 * A journal cannot bend durasim through what it imports of durasim's or is served: durasim's own
 * modules it imports are a copy of its own, with its own fast-check (a journal that changed the
 * standard task or made every draw of fast-check's Random its minimum changed only that copy), the
 * packages of durasim's machinery are refused there by name (memfs: a disk of the copy's was built
 * on the world's own), and nothing it is served holds durasim's world (a served FileHandle's
 * context reached the simulated disk). Each journal here was judged clean, or made durasim fail as
 * if by itself, before its fix.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir = '';
let out: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-bending-'));
  out = [];
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const run = (...argv: string[]) => main(argv, (line) => out.push(line));

describe("a journal that changes durasim's own modules it imports", () => {
  // Imported by path, durasim's files were the very instances a pool worker runs: a journal that emptied the standard task drew
  // nothing to run (exit 5, "durasim itself failed"); one that kept only its lookup was judged clean with its bug (exit 0).
  const own = (path: string): string => JSON.stringify(join(ROOT, path));
  const bending = (name: string, change: string): string => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `import { STANDARD_OPERATIONS } from ${own('src/standardWorkload.ts')};\nimport { journal } from ${own('src/journals/mutants/noFsync.ts')};\nconst ops = STANDARD_OPERATIONS as unknown as { kind: string }[];\n${change}\nexport default journal;\n`);
    return file;
  };
  const checkOf = (file: string, name: string) => run('check', '--no-sweep', '--journal', file, '--runs', '200', '--seed', '1', '--workers', '1', '--report-dir', join(dir, name), '--regressions', join(dir, `${name}-regressions`), '--no-progress');

  test('changes its own copy only: the runs are drawn as ever, and its bug is found (never a clean verdict, never durasim failing)', async () => {
    expect(await checkOf(bending('keeps-the-lookup', "ops.splice(0, ops.length, ...ops.filter((op) => op.kind === 'lookup'));"), 'lookup')).toBe(1);
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[post-[abc]\]/m);
    out = [];
    expect(await checkOf(bending('empties-the-task', 'ops.splice(0);'), 'empty')).toBe(1);
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[post-[abc]\]/m);
  });

  test("reaches fast-check through durasim's modules and makes every draw its minimum: its own copy's fast-check, so the runs are drawn as ever and its bug is found at the mutant's run", async () => {
    // The Random a copy's scenarioAt hands the arbitrary, caught: its prototype was fast-check's Random.prototype, the very one the worker
    // draws every run with (the copy shared npm packages with the thread). With each next* made to return its minimum, every drawn run
    // was fault-free: budget-in-memory (found by drawn runs only) was judged clean over 1,000 runs, and by the default check.
    const file = join(dir, 'minimal-draws.ts');
    writeFileSync(file, `import { scenarioArbitrary } from 'durasim';
import { scenarioAt } from ${own('src/runner/scenarioSource.ts')};
import { journal } from ${own('src/journals/mutants/budgetInMemory.ts')};
const arbitrary = scenarioArbitrary() as unknown as { generate: (random: object) => never };
let random: object | undefined;
arbitrary.generate = (given) => { random = given; throw new Error('caught'); };
try { scenarioAt(arbitrary as never, 1, 0); } catch { /* the Random is caught */ }
const proto = (random ? Object.getPrototypeOf(random) : {}) as Record<string, unknown>;
for (const name of Object.getOwnPropertyNames(proto)) if (name.startsWith('next') && typeof proto[name] === 'function') proto[name] = (min?: unknown) => (typeof min === 'number' ? min : 0);
export default journal;
`);
    // Run 35 of seed 1, where the mutant alone is found (check --no-sweep --journal src/journals/mutants/budgetInMemory.ts --seed 1).
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '100', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'minimal'), '--regressions', join(dir, 'minimal-regressions'), '--no-progress')).toBe(1);
    expect(out.find((line) => /^\d+ runs? in /.test(line))).toMatch(/^35 runs in /);
  });

  test("builds a disk of durasim's and bends memfs under it: refused by name, never durasim failing as if by itself", async () => {
    // A disk of the copy's was built on the thread's memfs (a module already loaded is handed over, even in a journal's turn): with
    // the write of memfs's Node made to do nothing, the world's own disk broke and the check ended "durasim itself failed" (exit 5).
    const file = join(dir, 'memfs-bend.ts');
    writeFileSync(file, `import { DiskState } from ${own('simulator/disk/diskState.ts')};
import { journal } from ${own('src/journals/mutants/noFsync.ts')};
const bend = (): void => {
  const disk = new DiskState('/work', {}) as unknown as { vol: { _core: { root: { getNode(): object } } } };
  (Object.getPrototypeOf(disk.vol._core.root.getNode()) as Record<string, unknown>).write = () => 0;
};
export default { ...journal, name: 'memfs-bend', run: async (env: unknown, task: unknown) => { bend(); return (journal as unknown as { run(env: unknown, task: unknown): Promise<void> }).run(env, task); } };
`);
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'memfs'), '--regressions', join(dir, 'memfs-regressions'), '--no-progress')).toBe(3);
    expect(out.join('\n')).toContain("exited with Error: Failed to load memfs: durasim's modules a journal imports do not load it");
  });
});

describe("a journal that reaches for durasim's world through what it is served", () => {
  // A served FileHandle kept its serving context as an own property: handle.ctx.world.disk was the simulated disk itself. The no-fsync
  // mutant, with every write made durable as it landed (handleWrite wrapped to call handleSync), was judged clean over 200 runs (exit 0).
  test('finds nothing there: the no-fsync bug is found as ever', async () => {
    const file = join(dir, 'world-bend.ts');
    writeFileSync(file, `import { open } from 'node:fs/promises';
import { journal } from ${JSON.stringify(join(ROOT, 'src/journals/mutants/noFsync.ts'))};
const bend = async (): Promise<void> => {
  const handle = (await open('/work/.bend', 'w')) as unknown as { ctx?: { world?: { disk?: Record<string, (...args: unknown[]) => void> & { bent?: boolean } } }; close(): Promise<void> };
  const disk = handle.ctx?.world?.disk;
  await handle.close();
  if (!disk || disk.bent) return;
  disk.bent = true;
  const write = disk.handleWrite.bind(disk);
  disk.handleWrite = (fd: unknown, ...rest: unknown[]) => { write(fd, ...rest); disk.handleSync(fd); };
};
export default { ...journal, name: 'world-bend', run: async (env: unknown, task: unknown) => { await bend(); return (journal as unknown as { run(env: unknown, task: unknown): Promise<void> }).run(env, task); } };
`);
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '200', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'world'), '--regressions', join(dir, 'world-regressions'), '--no-progress')).toBe(1);
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[post-[abc]\]/m);
  });
});
