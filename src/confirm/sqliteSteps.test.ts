/**
 * A SQLite journal's steps at the grain both worlds share (sqliteSteps.ts): the simulated steps
 * outside SQLite renumbered per incarnation, SQLite's disk changes put under the step before them
 * and merged as the real side's are, and the scenario's faults moved to the numbers outside SQLite
 * — or refused, named, where they land among SQLite's calls.
 */
import { describe, expect, test } from 'vitest';
import type { DiskCallLine } from '../../simulator/disk/diskCallLog.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { outsideSqlite, remarked, scenarioOutsideSqlite } from './sqliteSteps.js';
import { workerSteps, type StepLine } from './workerSteps.js';

/** A simulated trace: worker-0#0's steps (op and detail), then worker-0#1's. */
const line = (seq: number, incarnation: number, step: number, op: string, detail = ''): StepLine => ({ seq, actor: 'worker-0', incarnation, step, op, detail });
const TRACE: StepLine[] = [
  line(0, 0, 0, 'fs.open', 'journal.lock w'),
  line(1, 0, 1, 'sqlite.xOpen', 'journal.db'),
  line(2, 0, 2, 'sqlite.xWrite', 'journal.db-wal 24 bytes at 32'),
  line(3, 0, 3, 'sqlite.xWrite', 'journal.db-wal 4096 bytes at 56'),
  line(4, 0, 4, 'fetch', 'POST /operations/post-a'),
  line(5, 0, 5, 'sqlite.xWrite', 'journal.db-wal 24 bytes at 4152'),
  line(6, 0, 6, 'fs.unlink', 'journal.lock'),
  line(7, 1, 0, 'sqlite.xOpen', 'journal.db'),
  line(8, 1, 1, 'fs.open', 'journal.lock w'),
];
const base = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [{ kind: 'publish', key: 'post-a', body: 'a' }] } };

describe('a SQLite journal\'s steps outside SQLite', () => {
  test('renumbered per incarnation; each SQLite step\'s mark is the step before it outside SQLite (none: \'\')', () => {
    const { steps, marks } = outsideSqlite(workerSteps(TRACE));
    expect(steps.map((s) => `${s.worker} ${s.step} ${s.op}`)).toEqual(['worker-0#0 0 fs.open', 'worker-0#0 1 fetch', 'worker-0#0 2 fs.unlink', 'worker-0#1 0 fs.open']);
    expect(marks.get('worker-0#0 step 3 sqlite.xWrite')).toBe('worker-0#0 step 0 fs.open');
    expect(marks.get('worker-0#0 step 5 sqlite.xWrite')).toBe('worker-0#0 step 1 fetch');
    expect(marks.get('worker-0#0 step 6 fs.unlink')).toBe('worker-0#0 step 2 fs.unlink');
    expect(marks.get('worker-0#1 step 0 sqlite.xOpen')).toBe('');
  });

  test('SQLite\'s writes that now follow one another under one mark, to one file, are merged; others are not', () => {
    const write = (mark: string, path: string, bytes: number, at: number): DiskCallLine => ({ mark, text: `write ${path} ${bytes} bytes at ${at} "x"`, key: `write ${path}`, op: 'write', paths: [path], tail: '' });
    const { marks } = outsideSqlite(workerSteps(TRACE));
    const lines = remarked(
      [
        write('worker-0#0 step 2 sqlite.xWrite', 'journal.db-wal', 24, 32),
        write('worker-0#0 step 3 sqlite.xWrite', 'journal.db-wal', 4096, 56),
        write('worker-0#0 step 5 sqlite.xWrite', 'journal.db-wal', 24, 4152),
      ],
      marks,
    );
    expect(lines.map((l) => `${l.mark} | ${l.text}`)).toEqual(['worker-0#0 step 0 fs.open | write journal.db-wal 4120 bytes at 32 "x"', 'worker-0#0 step 1 fetch | write journal.db-wal 24 bytes at 4152 "x"']);
  });

  test('a crash on a step outside SQLite moves to its number there, numbered or anchored; an event at a global step, to the count before it', () => {
    const scenario = parseScenario({
      ...base,
      faults: [
        { kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, when: 'after', mode: 'lose-unsynced' },
        { kind: 'crash', process: 0, incarnation: 1, step: 1, when: 'before', mode: 'keep-all' },
        { kind: 'duplicate-delivery', atStep: 6 },
      ],
    });
    const placed = scenarioOutsideSqlite(scenario, TRACE);
    expect('scenario' in placed && placed.scenario.faults).toEqual([
      { kind: 'crash', process: 0, incarnation: 0, step: 1, when: 'after', mode: 'lose-unsynced' },
      { kind: 'crash', process: 0, incarnation: 1, step: 0, when: 'before', mode: 'keep-all' },
      { kind: 'duplicate-delivery', atStep: 2 },
    ]);
  });

  test('what lands among SQLite\'s calls is refused, named: a crash on a SQLite step, an event due at one, an anchor only SQLite steps mention', () => {
    const why = (fault: unknown): string | undefined => {
      const placed = scenarioOutsideSqlite(parseScenario({ ...base, faults: [fault] }), TRACE);
      return 'why' in placed ? placed.why : undefined;
    };
    expect(why({ kind: 'crash', process: 0, incarnation: 0, step: 3, when: 'before', mode: 'lose-unsynced' })).toBe('the crash fault lands on worker-0#0 step 3 sqlite.xWrite, a call native SQLite makes inside one JavaScript call, where no real process can be stopped (docs/sqlite.md)');
    expect(why({ kind: 'duplicate-delivery', atStep: 2 })).toBe('the duplicate-delivery event falls due at worker-0#0 step 2 sqlite.xWrite, among the calls native SQLite makes inside one JavaScript call, where no real event can be placed (docs/sqlite.md)');
    expect(why({ kind: 'duplicate-delivery', at: { mentions: 'journal.db-wal', occurrence: 0 } })).toBe('the duplicate-delivery event is anchored on "journal.db-wal", which worker-0#0 step 2 sqlite.xWrite mentions: native SQLite\'s calls are no steps of a real process (docs/sqlite.md)');
    // An anchor no SQLite step mentions stays as it is.
    expect(why({ kind: 'duplicate-delivery', at: { mentions: 'post-a', occurrence: 0 } })).toBeUndefined();
  });
});
