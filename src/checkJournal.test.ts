import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkJournal } from './checkJournal.js';
import { mutantNamed } from './journals/mutants/index.js';
import { referenceJournal } from './journals/reference.js';

describe('checkJournal (the vitest helper)', () => {
  test('passes for a correct journal', async () => {
    await expect(checkJournal(referenceJournal, { runs: 60, seed: 3, regressionsDir: mkdtempSync(join(tmpdir(), 'durasim-reg-')) })).resolves.toBeUndefined();
  });

  test('fails with the readable counterexample, saves it, and replays it first next time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-reg-'));
    const noFsync = mutantNamed('no-fsync')?.journal;
    if (!noFsync) throw new Error('the no-fsync mutant is missing');
    const first = checkJournal(noFsync, { runs: 60, seed: 3, regressionsDir: dir });
    await expect(first).rejects.toThrow(/durasim found a failure in journal "no-fsync" \(seed 3, after \d+ runs?, shrunk \d+ times?\)\n {2}write-ahead \[post-a\]/);
    await expect(first).rejects.toThrow(/replay: npx durasim replay .+\.json --journal no-fsync/);
    expect(readdirSync(join(dir, 'no-fsync'))).toHaveLength(1);
    await expect(checkJournal(noFsync, { runs: 1, seed: 99, regressionsDir: dir })).rejects.toThrow(/\(stored regression .+\.json\)/);
  });

  test('skips a stored regression of a fault family it does not draw, as check does, and replays it when it does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-reg-'));
    mkdirSync(join(dir, 'torn-tail-fatal'));
    // torn-tail-fatal's committed regression: a torn-tail machine crash (the disk family).
    copyFileSync(new URL('../reports/regressions/torn-tail-fatal/5c7d6fe8baad79b2.json', import.meta.url), join(dir, 'torn-tail-fatal', '5c7d6fe8baad79b2.json'));
    const tornTailFatal = mutantNamed('torn-tail-fatal')?.journal;
    if (!tornTailFatal) throw new Error('the torn-tail-fatal mutant is missing');
    await expect(checkJournal(tornTailFatal, { runs: 1, seed: 1, faults: ['response'], regressionsDir: dir })).resolves.toBeUndefined();
    await expect(checkJournal(tornTailFatal, { runs: 1, seed: 1, faults: ['disk'], regressionsDir: dir })).rejects.toThrow(/\(stored regression .+5c7d6fe8baad79b2\.json\)/);
  });

  test('refuses a journal object it cannot run in a worker, and a seed it would have to wrap', async () => {
    const mine = { name: 'mine', run: async () => {}, inspect: () => ({}) };
    await expect(checkJournal(mine)).rejects.toThrow('Failed to check the journal: checkJournal was given the object of journal "mine", but it runs journals in worker threads with fresh modules per incarnation, so it needs the module. Pass the module instead: checkJournal(new URL(\'./my-journal.ts\', import.meta.url)).');
    await expect(checkJournal(referenceJournal, { seed: 2 ** 32 })).rejects.toThrow('Failed to check the journal: the seed must be a whole number from 0 to 4294967295, found 4294967296.');
  });
});
