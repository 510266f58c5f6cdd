import { describe, expect, test } from 'vitest';
import { diskCallLines, type DiskCall, type MarkedDiskCall } from '../../simulator/disk/diskCallLog.js';
import { firstCallDivergence, roleKeys } from './callComparison.js';

const OPEN = 'worker-0#0 step 3 fs.open';
const WRITE = 'worker-0#0 step 4 fh.writeFile';
const SYNC = 'worker-0#0 step 5 fh.sync';
const RENAME = 'worker-0#0 step 6 fs.rename';
const STEPS = [OPEN, WRITE, SYNC, RENAME];
const bytes = new TextEncoder().encode('{}');
const at = (mark: string, call: DiskCall): MarkedDiskCall => ({ mark, call });

/** A journal's atomic save through a temp file named `temp` (in `folder`): create, write, fsync, rename. */
const save = (temp: string, folder = '.'): MarkedDiskCall[] => {
  const path = folder === '.' ? temp : `${folder}/${temp}`;
  return [at(OPEN, { op: 'create', path }), at(WRITE, { op: 'write', path, at: 0, bytes }), at(SYNC, { op: 'fsync', path }), at(RENAME, { op: 'rename', path, to: 'state.json' })];
};

describe('created files are compared by their role, not their names', () => {
  test('a temp name drawn from a pid hash or a random UUID differs from world to world: no divergence', () => {
    expect(firstCallDivergence(diskCallLines(save('state.json.1561062714')), diskCallLines(save('state.json.2739544268')), STEPS)).toBeUndefined();
    expect(firstCallDivergence(diskCallLines(save('tmp-e52ba4fe-7ecd-49a9-9c37-34352c7b6724')), diskCallLines(save('tmp-9f0c1f5e-2a1d-4b7e-8a0e-1c2d3e4f5a6b')), STEPS)).toBeUndefined();
    // A file made inside a folder made with a random name (mkdtemp) is in that folder's role.
    const inTemp = (dir: string): MarkedDiskCall[] => [at(OPEN, { op: 'mkdir', path: dir }), at(WRITE, { op: 'create', path: `${dir}/log` }), at(SYNC, { op: 'fsync', path: `${dir}/` })];
    expect(firstCallDivergence(diskCallLines(inTemp('t-fAAAAA')), diskCallLines(inTemp('t-Zq81xP')), STEPS)).toBeUndefined();
  });

  test('the key shows the role: which step brought the name in, in which folder, its how-manieth there', () => {
    expect(roleKeys(diskCallLines(save('state.json.1561062714')))).toEqual([
      `create ./<new name 1 of ${OPEN}>`,
      `write ./<new name 1 of ${OPEN}>`,
      `fsync ./<new name 1 of ${OPEN}>`,
      `rename ./<new name 1 of ${OPEN}> → ./<new name 1 of ${RENAME}>`,
    ]);
  });

  test('a real difference in what was created still diverges: another folder, a folder for a file, a second file, no file at all, another kind of change', () => {
    const simulated = diskCallLines(save('state.json.1'));
    const cases: MarkedDiskCall[][] = [
      save('state.json.1', 'tmp'),
      [at(OPEN, { op: 'mkdir', path: 'state.json.1' }), ...save('state.json.1').slice(1)],
      [at(OPEN, { op: 'create', path: 'state.json.1' }), at(OPEN, { op: 'create', path: 'state.json.2' }), ...save('state.json.1').slice(1)],
      save('state.json.1').slice(1),
      [at(OPEN, { op: 'truncate', path: 'state.json.1', size: 0 }), ...save('state.json.1').slice(1)],
    ];
    for (const real of cases) expect(firstCallDivergence(simulated, diskCallLines(real), STEPS)?.mark).toBe(OPEN);
    // A fixed name: written in one world, another file in the other.
    const fixed = (path: string): MarkedDiskCall[] => [at(WRITE, { op: 'write', path, at: 0, bytes })];
    expect(firstCallDivergence(diskCallLines(fixed('journal.jsonl')), diskCallLines(fixed('state.json')), STEPS)?.mark).toBe(WRITE);
  });

  test('the first differing step is named with both sides as they were, names and all', () => {
    const divergence = firstCallDivergence(diskCallLines(save('a.1')), diskCallLines(save('a.1').filter((c) => c.call.op !== 'fsync')), STEPS);
    expect(divergence).toEqual({ mark: SYNC, simulated: ['fsync a.1'], real: [] });
  });
});
