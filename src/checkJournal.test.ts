import { mkdtempSync, readdirSync } from 'node:fs';
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
    await expect(first).rejects.toThrow(/durasim found a failure in journal "no-fsync" \(seed 3, after \d+ runs, shrunk \d+ times\)\n {2}write-ahead \[post-a\]/);
    await expect(first).rejects.toThrow(/replay: npx durasim replay .+\.json --journal no-fsync/);
    expect(readdirSync(join(dir, 'no-fsync'))).toHaveLength(1);
    await expect(checkJournal(noFsync, { runs: 1, seed: 99, regressionsDir: dir })).rejects.toThrow(/\(stored regression .+\.json\)/);
  });
});
