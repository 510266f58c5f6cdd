/**
 * What the judge reads of a real run, at its end: the journal's records (durable, and — traced —
 * as the processes saw them), the task's files, the secrets and temp files left in the real folder
 * and the store, with everything the run recorded on the way.
 */
import { judgedPromises } from '../../simulator/contract/judgedPromises.js';
import type { CrashEvidence, JudgeInput, Records, TraceLine } from '../../model/evidence.js';
import type { HistoryObserver } from '../../model/observedHistory.js';
import { secretInStore } from '../../simulator/disk/secretWatch.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { ServiceCore } from '../../simulator/service/service.js';
import type { StoreCore } from '../../simulator/store/store.js';
import { filesOn } from '../../simulator/world/inspection.js';
import type { RealDisk } from './realDisk.js';
import { secretSightingsIn } from './secretScan.js';
import { tempEvidenceIn } from './tempScan.js';

export function endEvidence(run: {
  scenario: Scenario;
  dir: string;
  token: string | undefined;
  outcome: JudgeInput['outcome'];
  trace: TraceLine[];
  core: ServiceCore;
  requests: JudgeInput['requests'];
  crashes: CrashEvidence[];
  userEdits: JudgeInput['userEdits'];
  observer: HistoryObserver;
  realDisk: RealDisk | undefined;
  /** The task's files. */
  paths: string[];
  storeCore: StoreCore;
  /** The store's clock: the run's start on the real clock, skewed as the scenario says. */
  offsetMs: number;
  /** The records in the real folder at the end (what a process reads), and those that would survive a machine crash. */
  visibleAtEnd: Records;
  final: Records;
  /** The task's files in the real folder at the end. */
  files: Record<string, string | undefined>;
}): JudgeInput {
  const { scenario, dir, token, trace, observer, realDisk, final, visibleAtEnd } = run;
  const last = trace.length - 1;
  observer.observe(final, last, 'durable');
  if (realDisk) observer.observe(visibleAtEnd, last, 'visible');
  const durableFiles = realDisk ? filesOn(realDisk.disk.durableView(), run.paths) : run.files;
  const secretSightings = token === undefined ? [] : [...secretSightingsIn(dir, token, last), ...secretInStore(run.storeCore.calls, token)];
  const temp = tempEvidenceIn(dir, scenario, last);
  return {
    scenario,
    outcome: run.outcome,
    trace,
    effects: run.core.effects,
    requests: run.requests,
    crashes: run.crashes,
    userEdits: run.userEdits,
    final: { durable: final, visible: realDisk ? visibleAtEnd : final, files: run.files, durableFiles },
    observed: observer.observed,
    receiptLosses: observer.receiptLosses,
    secretSightings,
    store: { calls: run.storeCore.calls, restarts: run.storeCore.restarts, offsetMs: run.offsetMs },
    ...(temp ? { temp } : {}),
    ...judgedPromises(scenario.service),
  };
}
