import { describe, expect, test } from 'vitest';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { crashPoints } from './crashPoints.js';
import { readsOnly, sameCrashStates } from './sameCrashStates.js';

const step = (seq: number, actor: string, stepNo: number, op: string, detail: string, incarnation = 0): TraceEntry => ({ seq, timeMs: 0, actor, incarnation, step: stepNo, op, detail });

describe('crash points that cannot differ', () => {
  test('after a step and before the same process\'s next, nothing between; before and after a read: one point (SQLite\'s reads and Node\'s)', () => {
    const trace: TraceEntry[] = [
      step(0, 'worker-0', 0, 'sqlite.xWrite', 'journal.db-journal 512 bytes at 0'),
      step(1, 'worker-0', 1, 'sqlite.xRead', 'journal.db-journal 8 bytes at 512'),
      step(2, 'worker-0', 2, 'sqlite.xAccess', 'journal.db-wal'),
      step(3, 'worker-0', 3, 'sqlite.xSync', 'journal.db-journal'),
      // another actor's line between two steps: the points on either side of it differ
      { seq: 4, timeMs: 0, actor: 'service', op: 'receive', detail: '#0 POST /operations/post-a → 201' },
      step(5, 'worker-0', 4, 'fs.readFile', 'journal.jsonl'),
      { seq: 6, timeMs: 0, actor: 'worker-0', incarnation: 0, step: 4, op: 'fs.readFile:result', detail: 'ENOENT' },
      step(7, 'worker-0', 5, 'fh.appendFile', 'journal.jsonl "x"'),
      // another process's step
      step(8, 'worker-1', 0, 'fh.appendFile', 'journal.jsonl "y"'),
      step(9, 'worker-0', 6, 'fh.sync', 'journal.jsonl'),
    ];
    const points = crashPoints(trace);
    const same = sameCrashStates(trace, points);
    expect(points.map((p, i) => `${p.line.split(' ')[0]}/${p.when}${same[i] ? ' =' : ''}`)).toEqual([
      'sqlite.xWrite/before',
      'sqlite.xWrite/after', // the write changed the page cache
      'sqlite.xRead/before =',
      'sqlite.xRead/after =',
      'sqlite.xAccess/before =',
      'sqlite.xAccess/after =',
      'sqlite.xSync/before =',
      'sqlite.xSync/after',
      'fs.readFile/before', // the service's line came between
      'fs.readFile/after =',
      'fh.appendFile/before =', // only the read's own result line between
      'fh.appendFile/after',
      'fh.appendFile/before', // worker-1
      'fh.appendFile/after',
      'fh.sync/before', // worker-1's step came between worker-0's two
      'fh.sync/after',
    ]);
  });

  test('a step that changes a byte, a clock or the service is no read', () => {
    expect(['sqlite.xRead', 'sqlite.xAccess', 'sqlite.xFileSize', 'fs.readFile', 'fs.promises.stat', 'fs.readdirSync'].filter((op) => readsOnly(op, 'x'))).toHaveLength(6);
    expect(['sqlite.xWrite', 'sqlite.xTruncate', 'sqlite.xSync', 'sqlite.xOpen', 'sqlite.xDelete', 'fs.open', 'fh.close', 'clock.now', 'random', 'fetch'].filter((op) => readsOnly(op, 'x'))).toEqual([]);
  });
});
