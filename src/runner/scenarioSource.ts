/**
 * The i-th generated scenario of a seed, on its own: every run has a random stream of its own,
 * derived from (seed, i), so runs can be generated in any order, on any shard, and the same seed
 * always gives the same scenarios — whatever the worker count. Values keep fast-check's shrink
 * context, so a failing one can be shrunk.
 */
import fc from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { scenarioArbitrary, type ScenarioArbitraryOptions } from '../arbitraries.js';
import type { GeneratedRun, Rerun } from '../pool/protocol.js';
import { TowardArbitrary } from './windowGuide.js';

/** A 32-bit mix of the seed and the run index (the splitmix32 finaliser). */
export function runSeed(seed: number, index: number): number {
  let x = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** fast-check's bias schedule: early runs lean toward small values, later ones less so. */
function biasFactor(index: number): number {
  return 2 + Math.floor(Math.log10(index + 1));
}

export function scenarioAt(arbitrary: fc.Arbitrary<Scenario>, seed: number, index: number): fc.Value<Scenario> {
  return arbitrary.generate(new fc.Random(xoroshiro128plus(runSeed(seed, index))), biasFactor(index));
}

/** Which re-run a run gets, by its ordinal among the runs of its shard (never by worker): see explore.ts. */
export function rerunFor(ordinal: number, scenario: Scenario, determinismEvery: number, independenceEvery: number): Rerun | undefined {
  if (determinismEvery > 0 && ordinal % determinismEvery === 0) return 'same';
  const crashes = scenario.faults.some((f) => f.kind === 'crash');
  if (independenceEvery > 0 && crashes && ordinal % independenceEvery === Math.floor(independenceEvery / 2)) return 'fresh';
  return undefined;
}

const arbitraries = new Map<string, fc.Arbitrary<Scenario>>();

/** The arbitrary of these options, built once per distinct options in a thread. */
export function arbitraryOf(options: ScenarioArbitraryOptions): fc.Arbitrary<Scenario> {
  const key = JSON.stringify(options);
  let arbitrary = arbitraries.get(key);
  if (arbitrary === undefined) {
    arbitrary = scenarioArbitrary(options);
    if (arbitraries.size >= 64) arbitraries.clear();
    arbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

/** The arbitrary a GeneratedRun's value comes from (an aimed run's wraps its parent's): what shrinks it. */
export function runArbitrary(run: Pick<GeneratedRun, 'arbitrary' | 'seed' | 'toward'>): fc.Arbitrary<Scenario> {
  const base = arbitraryOf(run.arbitrary);
  const toward = run.toward;
  return toward === undefined ? base : new TowardArbitrary(base, () => scenarioAt(base, run.seed, toward.parent), toward);
}

/** The scenario a GeneratedRun names: the same in every thread. */
export function generatedScenario(run: GeneratedRun): fc.Value<Scenario> {
  return run.toward === undefined ? scenarioAt(arbitraryOf(run.arbitrary), run.seed, run.index) : runArbitrary(run).generate(new fc.Random(xoroshiro128plus(0)), 0);
}
