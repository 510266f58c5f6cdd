/**
 * The journal floor: what the reference journal's own code costs per call, on the fault-free
 * standard task served by the plainest world there is (floorEnv.ts: a Map for a file system,
 * plain-object responses, no simulator). The bench divides check's CPU per trace entry by it.
 */
import type { Task } from '../../model/contract/contract.js';
import { SERVICE_URL } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { baseScenario, STANDARD_FILES, STANDARD_OPERATIONS, STANDARD_RESOURCES } from '../arbitraries.js';
import { referenceJournal } from '../journals/reference.js';
import { floorEnv } from './floorEnv.js';

const cpuMs = (): number => {
  const usage = process.cpuUsage(); // allow-ambient: the bench measures the harness, outside any simulation
  return (usage.user + usage.system) / 1000;
};

export interface JournalFloor {
  /** CPU per run of the task, the best round. */
  msPerRun: number;
  /** The journal's calls in one run, and the worker steps of the same task simulated (the same calls: they must agree). */
  calls: number;
  simulatedSteps: number;
  usPerCall: number;
}

const FLOOR_TASK: Task = { id: 'task-1', operations: [...STANDARD_OPERATIONS], service: { url: SERVICE_URL, query: true, idempotentReplay: true } };

/** One run of the fault-free standard task on the floor; the journal's calls it took. */
export async function runFloorOnce(): Promise<number> {
  const floor = floorEnv(STANDARD_FILES, STANDARD_RESOURCES, SERVICE_URL);
  await referenceJournal.run(floor.env, FLOOR_TASK);
  return floor.calls;
}

export async function journalFloor(options: { runs: number; rounds: number }): Promise<JournalFloor> {
  const simulated = await simulate(referenceJournal, baseScenario());
  const simulatedSteps = simulated.trace.filter((entry) => entry.globalStep !== undefined).length;
  let calls = 0;
  const once = async (): Promise<void> => {
    calls = await runFloorOnce();
  };
  for (let i = 0; i < Math.min(500, options.runs); i++) await once(); // warm
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < options.rounds; round++) {
    const started = cpuMs();
    for (let i = 0; i < options.runs; i++) await once();
    best = Math.min(best, (cpuMs() - started) / options.runs);
  }
  return { msPerRun: best, calls, simulatedSteps, usPerCall: (best * 1000) / calls };
}
