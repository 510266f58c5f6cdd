/**
 * The measurement behind examples/contracts (issue 54, "Done when"): each preset's clean worker
 * over 2,000 generated runs (every failing run counted), and each broken copy's runs to its first
 * failing run at seeds 1, 2 and 3 (within 2,000), with the invariants that run broke — as `durasim
 * check` draws them from the preset's durasim.config.json. A measurement, not a test:
 *
 *   node --import tsx examples/contracts/measure.ts [runs]
 */
import { join } from 'node:path';
import { arbitraryOptions } from '../../src/cli/check.js';
import { readTaskFile, settingsOf } from '../../src/cli/config.js';
import { DEFAULT_FAULT_KINDS } from '../../src/arbitraries.js';
import { journalRefOf } from '../../src/isolation/journalRef.js';
import { WorkerPool } from '../../src/pool/workerPool.js';
import { hunt } from '../../src/runner/hunt.js';
import { summaryOf } from '../../src/runner/runVerdict.js';

const HERE = import.meta.dirname;
const PRESETS = ['payments', 'ietf', 'client-token'] as const;
const BROKEN = ['journal-ignores-mismatch.ts', 'journal-ignores-in-progress.ts', 'journal-ignores-key-expiry.ts'] as const;
const runs = Number(process.argv[2] ?? 2000);

const pool = new WorkerPool({ workers: 2 });
try {
  for (const preset of PRESETS) {
    const dir = join(HERE, preset);
    const settings = settingsOf({ config: join(dir, 'durasim.config.json') }, dir);
    const task = settings.task === undefined ? undefined : { file: settings.task, scenario: readTaskFile(join(dir, settings.task), settings.operations) };
    const arbitrary = arbitraryOptions({ faults: settings.faults ?? [...DEFAULT_FAULT_KINDS], operations: settings.operations, features: settings.features, task, contract: settings.service });
    const load = (file: string) => pool.load(journalRefOf(join(dir, file)), {});
    const clean = await load('journal.ts');
    const tallied = await hunt({ pool, journalId: clean.journalId, seed: 1, runs, arbitrary, tally: true, shrink: false });
    const failing = Object.entries(tallied.tally?.counts ?? {}).map(([code, n]) => `${code} ${n}`).join(', ');
    console.log(`${preset} journal.ts: ${tallied.runsExecuted} runs at seed 1, ${failing === '' ? 'no failing run' : `failing runs: ${failing}`}`);
    for (const file of BROKEN) {
      const broken = await load(file);
      const found: string[] = [];
      for (const seed of [1, 2, 3]) {
        const hunted = await hunt({ pool, journalId: broken.journalId, seed, runs, arbitrary, shrink: false });
        const finding = hunted.finding;
        const index = finding && 'index' in finding.origin ? finding.origin.index + 1 : undefined;
        const codes = [...new Set((summaryOf(finding?.outcome ?? { kind: 'cancelled' })?.violations ?? []).map((v) => v.code))];
        found.push(index === undefined ? `seed ${seed}: not found in ${runs}` : `seed ${seed}: run ${index} (${codes.join(', ') || finding?.verdict})`);
      }
      console.log(`${preset} ${file}: ${found.join(' · ')}`);
    }
  }
} finally {
  await pool.close();
}
