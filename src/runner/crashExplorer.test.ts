import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { baseScenario, STANDARD_OPERATIONS, type FaultKind } from '../arbitraries.js';
import { bundledJournal, journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { DOWNTIME_MS } from './longOutage.js';
import { crashPoints, exploreCrashes, ioShapes, stepKind, tornShapes, type SweptState } from './crashExplorer.js';
import { sameCrashStates } from './sameCrashStates.js';

describe('crash points and states', () => {
  test.each([
    ['fh.sync', '/work/', 'directory fsync'],
    ['fh.sync', 'journal.jsonl', 'fsync'],
    ['fh.appendFile', 'journal.jsonl "x"', 'append'],
    ['fetch', 'POST /operations/a', 'POST'],
    ['fetch', 'GET /resources/config', 'GET'],
    ['fs.link', 'a → b', 'rename/link'],
    ['fs.promises.rename', 'a → b', 'rename/link'],
    ['fs.fsyncSync', 'journal.jsonl', 'fsync'],
    ['fs.fsync', '/work/', 'directory fsync'],
    ['fh.write', 'journal.jsonl "x"', 'write'],
    ['setTimeout', '100ms', 'clock'], // allow-ambient: a step kind's name
    ['crypto.randomUUID', '16 bytes', 'random'],
    // SQLite's VFS steps are the Linux calls os_unix.c makes (xSync's name must not read as a synchronous fs call's).
    ['sqlite.xOpen', 'journal.db create', 'open'],
    ['sqlite.xRead', 'journal.db 4096 bytes at 0', 'read'],
    ['sqlite.xWrite', 'journal.db-wal 4096 bytes at 56', 'write'],
    ['sqlite.xTruncate', 'journal.db-journal to 0 bytes', 'write'],
    ['sqlite.xSync', 'journal.db-wal and its folder', 'fsync'],
    ['sqlite.xDelete', 'journal.db-journal and fsync its folder', 'unlink'],
    ['sqlite.xAccess', 'journal.db-journal', 'read'],
    ['sqlite.xFileSize', 'journal.db', 'read'],
  ])('step kind of %s %s is %s (from the trace line; a directory handle ends in "/")', (op, detail, kind) => {
    expect(stepKind(op, detail)).toBe(kind);
  });

  test('every worker step is two points (before, after); results, the world and earlier positions are not', () => {
    const trace: TraceEntry[] = [
      { seq: 0, timeMs: 0, actor: 'supervisor', op: 'start', detail: 'worker-0#0' },
      { seq: 1, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 0, op: 'fs.readFile', detail: 'journal.jsonl' },
      { seq: 2, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 0, op: 'fs.readFile:result', detail: 'ENOENT' },
      { seq: 3, timeMs: 0, actor: 'worker-1', incarnation: 2, step: 5, op: 'fh.sync', detail: '/work/' },
    ];
    expect(crashPoints(trace).map((p) => `${p.pid}/${p.incarnation}/${p.step}/${p.when}/${p.kind}`)).toEqual(['0/0/0/before/read', '0/0/0/after/read', '1/2/5/before/directory fsync', '1/2/5/after/directory fsync']);
    expect(crashPoints(trace, 2).map((p) => p.seq)).toEqual([3, 3]);
  });

  test('each point carries what its step touches, read with the service\'s and the store\'s lines after it', () => {
    const trace: TraceEntry[] = [
      { seq: 0, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 0, globalStep: 0, op: 'fetch', detail: 'POST /operations/post-a' },
      { seq: 1, timeMs: 0, actor: 'service', op: 'receive', detail: '#0 POST /operations/post-a → 201' },
      { seq: 2, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 1, globalStep: 1, op: 'store.put', detail: 'task-1/projection' },
      { seq: 3, timeMs: 0, actor: 'store', op: 'put', detail: '#0 worker-0#0 put task-1/projection under lease task-1 token 1 → ok v1' },
      { seq: 4, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 2, globalStep: 2, op: 'fh.sync', detail: 'journal.jsonl' },
    ];
    expect(crashPoints(trace, -1, ['post-a']).map((p) => `${p.step}/${p.when}: ${p.touches.join(', ')}`)).toEqual([
      '0/before: key post-a', '0/after: key post-a',
      '1/before: store task-1/projection, lease task-1', '1/after: store task-1/projection, lease task-1',
      '2/before: file journal.jsonl', '2/after: file journal.jsonl',
    ]);
  });

  test('torn and per-file shapes only where something was unsynced; per-file combinations fewest kept first, capped', () => {
    expect(tornShapes({}, 16)).toEqual([]);
    const shapes = tornShapes({ 'a.log': 2, 'b.txt': 1 }, 3);
    expect(shapes.slice(0, 4).map((s) => `${s.mode}/${s.tail ?? 'cut'}`)).toEqual(['torn-tail/cut', 'torn-tail/zeros', 'torn-tail/garbage', 'torn-write/cut']);
    expect(shapes.slice(4).map((s) => s.keep)).toEqual([{ 'b.txt': 1 }, { 'a.log': 1 }, { 'a.log': 1, 'b.txt': 1 }]);
    expect(tornShapes({ 'a.log': 2, 'b.txt': 1 }, 99).slice(4)).toHaveLength(5); // 3 × 2 combinations, less all-zero
  });

  test('I/O errors at disk calls only; a write also gets ENOSPC after a short write', () => {
    expect(ioShapes('POST')).toEqual([]);
    expect(ioShapes('fsync')).toEqual([{ error: 'EIO' }]);
    expect(ioShapes('append')).toEqual([{ error: 'EIO' }, { error: 'ENOSPC', writtenBytes: 1 }]);
  });
});

describe('exploreCrashes', () => {
  // One worker: what an exploration or a hunt finds does not depend on the count (src/pool/workerPool.test.ts), and on 2 cores under
  // vitest's two forks a second worker adds its boot and warm-up (~5 s of CPU over these files) and takes no wall time off.
  const pool = new WorkerPool({ workers: 1 });
  afterAll(() => pool.close());
  const base = baseScenario([{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }]);
  const explore = async (name: string, depth: 1 | 2 = 1, families?: FaultKind[]) => {
    const loaded = await pool.load(bundledJournal(name)!);
    return exploreCrashes({ pool, journalId: loaded.journalId, base, depth, ...(families ? { families } : {}) });
  };
  // The reference's depth-1 exploration of one publish, and its depth-2 one cut at 300 runs past it, each made once: an
  // exploration is deterministic, and three tests read the first, two the second (each cost a test ~4 s of CPU).
  let referenceDepth1: ReturnType<typeof exploreCrashes> | undefined;
  const referenceOne = () => (referenceDepth1 ??= explore('reference'));
  // Which key, file, store entry or lease each pair's second step touches, in the order the pairs were judged.
  const judged = async (allPairs: boolean, pairRuns = 300) => {
    const [loaded, one] = await Promise.all([pool.load(bundledJournal('reference')!), referenceOne()]);
    const seconds: string[][] = [];
    const onState = (state: SweptState) => void (state.scenario.faults.length === 2 && seconds.push([...state.point.touches]));
    return { ...(await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 2, maxRuns: one.runs + pairRuns, allPairs, onState })), seconds };
  };
  let referenceDepth2: ReturnType<typeof judged> | undefined;
  const referencePairs = () => (referenceDepth2 ??= judged(false));

  test('the reference journal survives every crash state and I/O error of one publish; every row has states', async () => {
    const result = await referenceOne();
    expect(result.harnessError).toBeUndefined();
    expect(result.findings).toEqual([]);
    const kinds = result.rows.map((r) => r.kind);
    for (const kind of ['append', 'fsync', 'directory fsync', 'POST'] as const) expect(kinds).toContain(kind);
    for (const row of result.rows) expect(row.states, row.kind).toBeGreaterThanOrEqual(row.points);
    // Appends leave unsynced data: their points reach torn and per-file states beyond kill and loss.
    const append = result.rows.find((r) => r.kind === 'append')!;
    expect(append.states).toBeGreaterThan(2 * append.points);
    expect(result.states).toBe(result.rows.reduce((n, r) => n + r.states, 0));
  });

  test('crash states are tried once per run of points that cannot differ (sameCrashStates.ts), at every other point, and a mutant one crash reveals is still caught, by a kill and by a machine crash', async () => {
    const states: SweptState[] = [];
    const loaded = await pool.load(bundledJournal('reference')!);
    const result = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 1, families: ['crash', 'disk'], onState: (state) => void states.push(state) });
    const trace = result.baseSummary?.trace ?? [];
    const points = crashPoints(trace);
    const same = sameCrashStates(trace, points);
    const merged = new Set(points.filter((_, i) => same[i]).map((p) => `${p.seq}/${p.when}`));
    expect(merged.size).toBeGreaterThan(points.length / 3);
    const at = states.map((state) => `${state.point.seq}/${state.point.when}`);
    expect(at.filter((point) => merged.has(point))).toEqual([]);
    expect(new Set(at).size).toBe(points.length - merged.size);
    expect(result.points).toEqual({ explored: points.length, of: points.length });
    const mutant = await explore('retry-unsafe-write', 1, ['crash', 'disk']);
    expect(mutant.findings.map((f) => `${f.family} ${f.kind} ${f.violations[0]?.code}`)).toEqual(expect.arrayContaining(['crash append no-state-skip', 'disk fsync no-state-skip']));
  });

  test.each([
    ['rollback-journal', 'examples/libraries/better-sqlite3/journal.ts'],
    ['WAL', 'examples/libraries/better-sqlite3/wal-full.ts'],
  ])('a better-sqlite3 journal in %s mode gets I/O errors at its SQLite steps: EIO at every xSync, xRead, xTruncate, xDelete, and ENOSPC after a short write too at every xWrite', async (_, path) => {
    const loaded = await pool.load(journalRefOf(join(import.meta.dirname, '../..', path)));
    const tried: string[] = [];
    const result = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 1, families: ['io'], onState: (state) => void tried.push(`${state.point.seq} ${(state.scenario.faults[0] as { error?: string }).error}`) });
    expect(result.harnessError).toBeUndefined();
    const steps = (result.baseSummary?.trace ?? []).filter((e) => e.actor.startsWith('worker-') && e.step !== undefined && !e.op.endsWith(':result'));
    const at = (op: string, error: string) => steps.filter((e) => e.op === op).map((e) => `${e.seq} ${error}`);
    for (const op of ['sqlite.xSync', 'sqlite.xWrite', 'sqlite.xRead']) expect(at(op, 'EIO').length, op).toBeGreaterThan(0);
    for (const op of ['sqlite.xSync', 'sqlite.xWrite', 'sqlite.xRead', 'sqlite.xTruncate', 'sqlite.xDelete', 'sqlite.xOpen', 'sqlite.xFileSize']) expect(tried).toEqual(expect.arrayContaining(at(op, 'EIO')));
    expect(tried).toEqual(expect.arrayContaining(at('sqlite.xWrite', 'ENOSPC')));
    const fsync = result.rows.find((r) => r.kind === 'fsync');
    expect(fsync?.families.io?.tried).toBeGreaterThanOrEqual(at('sqlite.xSync', 'EIO').length);
    expect(result.rows.find((r) => r.kind === 'other')?.points ?? 0).toBe(0);
  });

  test('fsync-failure-retried is caught at an fsync, by write-ahead; overwrite-in-place by a crash', async () => {
    const fsync = await explore('fsync-failure-retried');
    expect(fsync.findings.map((f) => `${f.kind}/${f.violations[0]?.code}`)).toContain('fsync/write-ahead');
    expect(fsync.findings.find((f) => f.kind === 'fsync')?.scenario.faults).toEqual([{ kind: 'io-error', process: 0, incarnation: 0, step: 17, error: 'EIO' }]);
    const overwrite = await explore('overwrite-in-place');
    expect(overwrite.findings.some((f) => f.scenario.faults.some((x) => x.kind === 'crash' && x.mode !== 'keep-all'))).toBe(true);
  });

  test('every family is tried at its window: a 400 (failure), a malformed receipt (response), a changed task after a kill (intent) each catch their mutant, by a single fault', async () => {
    const found = async (name: string, family: FaultKind) => (await explore(name, 1, [family])).findings.map((f) => ({ family: f.family, code: f.violations[0]?.code, codes: f.violations.map((v) => v.code), faults: f.scenario.faults.length, note: f.note }));
    expect(await found('retries-invalid-argument', 'failure')).toContainEqual(expect.objectContaining({ family: 'failure', code: 'failure-class-respected', faults: 1, note: undefined }));
    expect((await found('trust-any-receipt', 'response')).some((f) => f.family === 'response' && f.faults === 1)).toBe(true);
    expect((await found('new-process-args', 'intent')).some((f) => f.family === 'intent' && f.codes.includes('recorded-intent-wins') && f.faults === 1 && f.note?.startsWith('then the task changes'))).toBe(true);
  });

  test('a kill is also tried with the worker back a day later: recovery that reads the clock (a log taken for stale after an hour) is caught at depth 1, by one fault, where every kill back 100 ms later is clean', async () => {
    const loaded = await pool.load(journalRefOf(join(import.meta.dirname, '../../properties/fixtures/staleLogJournal.ts')));
    const downs: number[] = [];
    const result = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 1, families: ['crash'], onState: (state) => void downs.push(state.scenario.restartDelayMs) });
    expect(result.harnessError).toBeUndefined();
    expect(result.findings.length).toBeGreaterThan(0);
    for (const finding of result.findings) {
      expect(finding.note).toBe('the worker restarted a day later');
      expect(finding.scenario.restartDelayMs).toBe(DOWNTIME_MS);
      expect(finding.scenario.faults).toEqual([expect.objectContaining({ kind: 'crash', mode: 'keep-all' })]);
    }
    expect(result.findings.flatMap((f) => f.violations.map((v) => v.code))).toContain('completed-replayed');
    // Both kinds of kill were tried at the points: back 100 ms later (the scenario's default) and a day later.
    expect(new Set(downs)).toEqual(new Set([base.restartDelayMs, DOWNTIME_MS]));
    // The reference, which reads no clock to recover, is clean with the long outage too.
    expect((await explore('reference', 1, ['crash'])).findings).toEqual([]);
    // Tried alone: no pair starts from an outage (an I/O error's exit after it would restart the worker a day later again,
    // past the bound its one crash grew: the packed package's CI recipe saw node-journal fail so, exit 3).
    const paired: number[] = [];
    const reference = await pool.load(bundledJournal('reference')!);
    await exploreCrashes({ pool, journalId: reference.journalId, base, depth: 2, families: ['crash', 'io'], maxRuns: 400, onState: (state) => void (state.first && paired.push(state.scenario.restartDelayMs)) });
    expect(paired.length).toBeGreaterThan(0);
    expect(paired.filter((ms) => ms === DOWNTIME_MS)).toEqual([]);
  });

  test('a duplicate delivery is also tried with the newcomer taking the first step: a check-then-act lease is caught at depth 1, by one fault', async () => {
    const loaded = await pool.load(bundledJournal('lease-check-then-create')!);
    const two = baseScenario(STANDARD_OPERATIONS.slice(0, 2));
    const result = await exploreCrashes({ pool, journalId: loaded.journalId, base: two, depth: 1, families: ['duplicate'] });
    const found = result.findings.find((f) => f.violations.some((v) => v.code === 'single-flight'));
    expect(found?.note).toBe('the newcomer taking the first step once both are ready');
    expect(found?.scenario.faults).toHaveLength(1);
    expect(found?.scenario.schedule).toEqual([1]);
  });

  test('depth 2 keeps the pairs whose second step touches what the first touched, the same key first; --all-pairs tries every pair in exploration order', async () => {
    const one = await referenceOne();
    const pruned = await referencePairs();
    expect(pruned.cutShort).toBe(true);
    const pairs = pruned.pairs!;
    expect(pairs.all).toBe(false);
    expect(pairs.partial).toBe(false);
    expect(pairs.kept).toBeGreaterThan(0);
    expect(pairs.kept).toBeLessThan(pairs.total);
    expect(pairs.byKind.key + pairs.byKind.file + pairs.byKind.store + pairs.byKind.lease).toBe(pairs.kept);
    expect(pairs.byKind.key).toBeGreaterThan(pairs.tried); // the budget ends among the same-key pairs...
    expect(pruned.seconds.length).toBeGreaterThan(0);
    expect(pruned.seconds.every((t) => t.includes('key post-a'))).toBe(true); // ...so every second fault tried is at a step that names post-a
    expect(pairs.runs).toBe(pruned.runs - one.runs); // the continuations come from the depth-1 runs: no run of their own
    const all = await judged(true, 30); // its first pairs are enough: they say the order
    expect(all.pairs).toMatchObject({ all: true, kept: expect.any(Number) });
    expect(all.seconds.some((t) => !t.includes('key post-a'))).toBe(true); // in exploration order, the step after the first fault comes first
  });

  test('a defect two related faults reveal (a cancel and a crash at steps naming the same key: cancel-rolls-back) is found among the first pairs by dependency, not in exploration order', async () => {
    const loaded = await pool.load(bundledJournal('cancel-rolls-back')!);
    const one = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 1 });
    expect(one.findings).toEqual([]); // one fault alone never reveals it
    const maxRuns = one.runs + 800;
    const pruned = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 2, maxRuns });
    expect(pruned.pairs?.firstFailingRun).toBeGreaterThan(one.runs);
    expect(pruned.pairs?.firstFailingRun).toBeLessThanOrEqual(pruned.runs);
    expect(pruned.findings[0]?.scenario.faults.map((f) => f.kind).sort()).toEqual(['cancel', 'crash']);
    // Every pair in exploration order, given the runs the pairs by dependency needed to find it: none of them finds it.
    const all = await exploreCrashes({ pool, journalId: loaded.journalId, base, depth: 2, maxRuns: pruned.pairs?.firstFailingRun ?? maxRuns, allPairs: true });
    expect(all.pairs?.firstFailingRun).toBeUndefined();
    expect(all.findings).toEqual([]);
  });

  test('depth 2 explores pairs: more states than depth 1, and a budget cuts it short honestly', async () => {
    const one = await referenceOne();
    const cut = await referencePairs(); // cut at 300 runs past depth 1
    expect(cut.cutShort).toBe(true);
    expect(cut.states).toBeGreaterThan(one.states);
    expect(cut.findings).toEqual([]);
  });
});
