/**
 * A sweep finding starts from the standard workload with every task feature of the shape (a token,
 * a retry budget, planned inputs, a shared temp folder), where a drawn one has only the features
 * its draw had and shrinks them away: this rewrite drops each feature the failure does not need,
 * one at a time, kept only when the run still fails the same way in fewer steps, until none can go.
 * The fault stays as it is, or an anchored one moves to an earlier occurrence of what it is
 * anchored to (the feature's own steps may have come before it); a fault that needs the feature (a
 * cancel, a changed input) fails without it and the feature stays.
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { shapedScenario, shapeOf } from '../taskShape.js';
import type { Measure } from './simplifyScenario.js';

export interface FewerFeatures {
  scenario: Scenario;
  /** Candidates run. */
  attempts: number;
  /** Features dropped. */
  dropped: string[];
}

export async function withFewerFeatures(scenario: Scenario, measure: Measure, stop?: () => boolean): Promise<FewerFeatures> {
  let current = scenario;
  let steps = await measure(current);
  let attempts = 1;
  const dropped: string[] = [];
  if (steps === undefined) return { scenario, attempts, dropped };
  for (let progress = true; progress && stop?.() !== true; ) {
    progress = false;
    const { features } = shapeOf(current);
    for (const feature of features) {
      const without = shapedScenario(current, { features: features.filter((f) => f !== feature) });
      if (JSON.stringify(without) === JSON.stringify(current)) continue;
      // The feature's own steps (a temp file's open, a token's read) may have come before an anchored
      // fault: without them, the same step is an earlier occurrence of its kind or name.
      for (const candidate of [without, ...earlierOccurrences(without)]) {
        attempts++;
        const candidateSteps = await measure(candidate);
        if (candidateSteps !== undefined && candidateSteps <= (steps as number)) {
          current = candidate;
          steps = candidateSteps;
          dropped.push(feature);
          progress = true;
          break;
        }
        if (stop?.()) break;
      }
      if (progress || stop?.()) break;
    }
  }
  return { scenario: current, attempts, dropped };
}

/** How far back an anchored fault is tried after a feature is dropped. */
const EARLIER = 8;

/** The scenario with each fault anchored at an occurrence past the first moved 1..EARLIER occurrences earlier, nearest first. */
export function earlierOccurrences(scenario: Scenario): Scenario[] {
  const out: Scenario[] = [];
  scenario.faults.forEach((fault, i) => {
    const at = 'at' in fault ? fault.at : undefined;
    if (at === undefined || typeof at.occurrence !== 'number' || at.occurrence === 0) return;
    for (let back = 1; back <= Math.min(EARLIER, at.occurrence); back++) {
      const moved = { ...fault, at: { ...at, occurrence: at.occurrence - back } } as Fault;
      out.push({ ...scenario, faults: scenario.faults.map((f, k) => (k === i ? moved : f)) });
    }
  });
  return out;
}
