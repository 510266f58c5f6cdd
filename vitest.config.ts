import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { HANG_GUARD_MS } from './properties/budgets.js';

/**
 * Unit tests of the world, the model, the runner and the reports, the property suites and the
 * docs' checks share one module graph per worker (isolate: false): they import the same simulator,
 * and importing it afresh costs a file 1–2 s of CPU (with properties/ and docs/ shared, `npm test`
 * went from 300–319 s to 244 s on the 2-core machine). A shared file must leave nothing behind for
 * the next one: no spies or mocks, no stubbed globals or environment, no working-folder change, no
 * journal compiled in the test process (its instances forget globals added after it was compiled),
 * which docs/sharedTests.test.ts holds them to. The rest — CLI runs, real processes, the package,
 * anything that patches globals (the timeline's browser test, console spies) — keep a fresh module
 * graph per file.
 */
/** Unit tests elsewhere in src/ that call no command, patch nothing and compile no journal: each cost ~0.3 s of CPU to start apart (36 such files: 15.9 s isolated, 8.1 s shared). */
export const SHARED_FILES = [
  'src/anchorDraws.test.ts', 'src/arbitraries.test.ts', 'src/changedIntent.test.ts', 'src/faultFamilies.test.ts', 'src/index.test.ts', 'src/readInputFile.test.ts',
  'src/bench/benchRows.test.ts', 'src/bin/parentShell.test.ts', 'src/journals/jsonlLog.test.ts', 'src/pool/defaultWorkers.test.ts', 'src/pool/hangRule.test.ts', 'src/pool/memoryBudget.test.ts',
  'src/cli/check.test.ts', 'src/cli/closestName.test.ts', 'src/cli/colour.test.ts', 'src/cli/endLine.test.ts', 'src/cli/escapeTally.test.ts', 'src/cli/merge.test.ts', 'src/cli/progress.test.ts',
  'src/confirm/answerQueue.test.ts', 'src/confirm/callComparison.test.ts', 'src/confirm/confirmVerdict.test.ts', 'src/confirm/nativeAddonFailure.test.ts', 'src/confirm/realWaits.test.ts',
  'src/confirm/sameDefect.test.ts', 'src/confirm/sideFiles.test.ts', 'src/confirm/sqliteSteps.test.ts', 'src/confirm/straceLog.test.ts', 'src/confirm/workerSteps.test.ts',
];
export const SHARED = ['simulator/**/*.test.ts', 'model/**/*.test.ts', 'src/runner/**/*.test.ts', 'src/report/**/*.test.ts', 'properties/**/*.test.ts', 'docs/**/*.test.ts', ...SHARED_FILES];
export const ISOLATED_AMONG_SHARED = ['src/report/timeline.test.ts'];

export default defineConfig({
  // "durasim" in an example or fixture is the sources here, as tsconfig.json's paths say (the package's own entry is dist/, built only for the package).
  resolve: { alias: [{ find: /^durasim$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }, { find: /^durasim\/internals$/, replacement: fileURLToPath(new URL('./src/internals.ts', import.meta.url)) }] },
  test: {
    // A test's timeout is a hang guard, never a speed gate (that is `npm run bench`), and no busy
    // machine reaches it: every test and hook has this one unless it names a larger one
    // (properties/budgets.ts; docs/hangGuards.test.ts holds the suite to it).
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    pool: 'forks',
    // A larger young generation for the test processes (simulations, draws and judging in the shared files make short-lived
    // objects by the million): 40.9 s of CPU against 42.4 s over six property files, fewer scavenges; pool workers set their own.
    execArgv: ['--max-semi-space-size=64'],
    // A check's pool takes the workers the last one left warm in this test process (src/pool/warmInTests.ts).
    setupFiles: ['./src/pool/warmInTests.ts'],
    // One test file per core (vitest's default leaves one core to its own process, which mostly waits).
    maxWorkers: Math.max(1, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, exclude: ISOLATED_AMONG_SHARED, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['src/*.test.ts', 'src/!(runner|report)/**/*.test.ts', 'examples/**/*.test.ts', ...ISOLATED_AMONG_SHARED], exclude: [...configDefaults.exclude, ...SHARED_FILES] },
      },
    ],
  },
});
