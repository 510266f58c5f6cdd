/**
 * The causes name the fix, end to end: a journal that renames its state file into place without
 * fsyncing the folder is told that the folder's fsync was missing (not that the file was never
 * fsynced), in the message and in evidence.missing; its correct twin passes the same scenario.
 */
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { describeViolation } from '../model/violation.js';
import { explainText } from '../src/report/explain.js';
import { journal as noFsync } from '../src/journals/mutants/noFsync.js';
import { parseScenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { renamesWithoutFolderFsyncJournal, stateFileJournal } from './fixtures/stateFileJournal.js';

const oneWrite = parseScenario({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] } });

describe('which durability step was missing', () => {
  test('a rename with no folder fsync: the folder fsync, in words and in evidence; the twin that fsyncs the folder is clean', async () => {
    const violations = judge(await simulate(renamesWithoutFolderFsyncJournal, oneWrite));
    const writeAhead = violations.find((v) => v.code === 'write-ahead');
    expect(writeAhead?.evidence.missing).toEqual([{ path: 'state.json', missing: 'folder-fsync' }]);
    expect(describeViolation(writeAhead!)).toContain('state.json: fsynced, but its entry vanished — fsync the folder after creating or renaming into it');
    expect(judge(await simulate(stateFileJournal, oneWrite))).toEqual([]);
  });

  test('appends with no fsync at all: the file fsync; and explain says what a machine crash lost under its disk line', async () => {
    const crashed = parseScenario({ ...JSON.parse(JSON.stringify(oneWrite)), faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 2 }, when: 'after', mode: 'lose-unsynced' }] });
    const result = await simulate(noFsync, crashed);
    const violations = judge(result);
    expect(violations.find((v) => v.code === 'write-ahead')?.evidence.missing).toEqual([{ path: 'journal.jsonl', missing: 'file-fsync' }]);
    const truthful = violations.find((v) => v.code === 'truthful-outcome');
    expect(truthful?.evidence.missing).toEqual([{ path: 'journal.jsonl', missing: 'file-fsync' }]);
    expect(truthful?.actual).toContain('the crash lost journal.jsonl: its writes were never fsynced (fsync the file before relying on it)');
    expect(explainText(result, violations)).toMatch(/disk crash journal\.jsonl: \d+ unsynced bytes lost\n {3}·· journal\.jsonl: \d+ unsynced bytes lost — fsync the file/);
  });
});
