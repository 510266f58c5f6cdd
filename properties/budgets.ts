/**
 * Property budgets and seeds, and every test's hang guard. Seeds are fixed so CI is reproducible;
 * set DURASIM_SEED to explore other corners, and DURASIM_RUNS_SCALE (e.g. 0.1) to run smaller
 * budgets locally.
 *
 * A test's timeout is a hang guard, never a speed gate (README, Development): it turns a hang into
 * a failure, and no busy machine may reach it — two busy loops beside the suite, other suites on the
 * same cores, a disk others fsync to (the fs conformance property once met its fixed 300 s there,
 * on work that takes 3 s idle). docs/hangGuards.test.ts holds every test file to it.
 */
const scale = Number(process.env.DURASIM_RUNS_SCALE ?? '1');
const envSeed = process.env.DURASIM_SEED;
const validScale = Number.isFinite(scale) && scale > 0 ? scale : 1;

export function runs(count: number): number {
  return Math.max(1, Math.round(count * validScale));
}

export function seed(fallback: number): number {
  return envSeed !== undefined && Number.isInteger(Number(envSeed)) ? Number(envSeed) : fallback;
}

/** Every test's and hook's timeout (vitest.config.ts), unless it names a larger one: ten minutes, for tests that take seconds. */
export const HANG_GUARD_MS = 10 * 60_000;
/** The least a child process a test runs may be given before it is killed. */
export const CHILD_HANG_GUARD_MS = 2 * 60_000;

/**
 * A hang guard derived from the work a test does: `count` units (runs, scenarios) of at most
 * `msPerUnit` each on a loaded machine — an allowance far above what one costs idle — and never
 * under HANG_GUARD_MS. A budget scaled up (DURASIM_RUNS_SCALE) scales its guard with it.
 */
export function hangGuard(count: number, msPerUnit: number): number {
  return Math.max(HANG_GUARD_MS, Math.ceil(count * msPerUnit));
}

/** The guard of a property of the usual budgets (thousands of simulations, seconds idle): HANG_GUARD_MS, grown with DURASIM_RUNS_SCALE. */
export const PROPERTY_TIMEOUT_MS = Math.ceil(HANG_GUARD_MS * Math.max(1, validScale));
