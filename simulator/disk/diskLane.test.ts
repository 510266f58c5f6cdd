import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
import { mutantNamed } from '../../src/journals/mutants/index.js';
import { referenceJournal } from '../../src/journals/reference.js';
import { parseScenarioText } from '../scenario/scenario.js';
import { simulate } from '../simulate.js';

const ROOT = resolve(import.meta.dirname, '../..');
const minimal = (name: string) => parseScenarioText(readFileSync(join(ROOT, 'reports/mutants/minimal', `${name}.json`), 'utf8'));

describe('the disk lane', () => {
  test('at the write-ahead violation of no-fsync, the journal file is visible but not durable', async () => {
    const journal = mutantNamed('no-fsync')?.journal;
    if (!journal) throw new Error('no-fsync is missing');
    const result = await simulate(journal, minimal('no-fsync'), { diskLane: true });
    const violation = judge(result).find((v) => v.code === 'write-ahead');
    expect(violation).toBeDefined();
    const lane = result.diskLane ?? [];
    const atViolation = lane.filter((s) => s.seq <= (violation?.step ?? -1)).at(-1);
    const log = atViolation?.files.find((f) => f.path === 'journal.jsonl');
    expect(log?.visibleBytes).toBeGreaterThan(0);
    expect(log?.durableBytes ?? 0).toBe(0);
    expect(log?.synced).toBe(false);
  });

  test('the reference makes its log durable: states change only when the disk does, and the run is the same with or without the lane', async () => {
    const scenario = minimal('no-fsync');
    const plain = await simulate(referenceJournal, scenario);
    const laned = await simulate(referenceJournal, scenario, { diskLane: true });
    expect(laned.traceHash).toBe(plain.traceHash);
    expect(plain.diskLane).toBeUndefined();
    const lane = laned.diskLane ?? [];
    expect(lane.length).toBeGreaterThan(2);
    for (let i = 1; i < lane.length; i++) expect(lane[i]?.files).not.toEqual(lane[i - 1]?.files);
    const last = lane.at(-1);
    expect(last?.files.find((f) => f.path === 'journal.jsonl')).toMatchObject({ synced: true });
    const requestSeq = laned.trace.find((e) => e.actor === 'service' && e.op === 'receive')?.seq ?? -1;
    const before = lane.filter((s) => s.seq < requestSeq).at(-1)?.files.find((f) => f.path === 'journal.jsonl');
    expect(before?.synced).toBe(true);
    expect(before?.durableBytes).toBe(before?.visibleBytes);
  });
});
