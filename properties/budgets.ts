/**
 * Property budgets and seeds. Seeds are fixed so CI is reproducible; set DURASIM_SEED to explore
 * other corners, and DURASIM_RUNS_SCALE (e.g. 0.1) to run smaller budgets locally.
 */
const scale = Number(process.env.DURASIM_RUNS_SCALE ?? '1');
const envSeed = process.env.DURASIM_SEED;

export function runs(count: number): number {
  return Math.max(1, Math.round(count * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export function seed(fallback: number): number {
  return envSeed !== undefined && Number.isInteger(Number(envSeed)) ? Number(envSeed) : fallback;
}

/** Generous: a budget of thousands of simulations takes seconds, but CI machines are shared. */
export const PROPERTY_TIMEOUT_MS = 300_000;
