/** durasim's public API. */
export * from '../model/contract/contract.js';
export { failureMessage, DurasimError } from '../model/contract/failure.js';
export { digestOf } from '../model/contract/digest.js';
export { realEnv, type RealEnvOptions } from './realEnv.js';
export { referenceJournal, ReferenceRun, journalFrom, REFERENCE_SETTINGS, type ReferenceSettings } from './journals/reference.js';
/** What a ReferenceRun records and reads back (a subclass that keeps its records elsewhere overrides loadRecords and record). */
export type { LogRecord } from './journals/jsonlLog.js';
export { coordinatedJournal, CoordinatedRun, coordinatedJournalFrom } from './journals/coordinated.js';
export { StoreTimeoutError } from '../simulator/node/simStore.js';
export { scenarioArbitrary, baseScenario, FAULT_KINDS, STANDARD_OPERATIONS, type FaultKind, type ScenarioArbitraryOptions } from './arbitraries.js';
export { simulate, reportUncaught, type SimulateOptions, type SimulationResult, type ServiceRequest } from '../simulator/simulate.js';
export { traceHash, formatTraceEntry, type TraceEntry } from '../simulator/world/trace.js';
export {
  parseScenario,
  parseScenarioText,
  scenarioToJson,
  SCENARIO_FORMAT,
  SCENARIO_VERSION,
  CRASH_MODES,
  DEFAULT_STORE,
  STORE_CALL_FAULTS,
  type ScenarioStore,
  type StoreCallFaultKind,
  type PauseFault,
  type TakeoverFault,
  type StoreCallFault,
  type StoreRestartFault,
  type StoreEditFault,
  type CancelFault,
  type InputChangeFault,
  RESPONSE_FAULTS,
  type Scenario,
  type Fault,
  type CrashFault,
  type ResponseFault,
  type UserEditFault,
  type DuplicateDeliveryFault,
  type ServiceRestartFault,
  type CrashMode,
  type ResponseFaultKind,
} from '../simulator/scenario/scenario.js';
export { ServiceCore, type Effect, type ServiceReply } from '../simulator/service/service.js';
export { serviceHandlers } from '../simulator/service/serviceHandlers.js';
export type { StopReason, CrashRecord, ExitRecord } from '../simulator/world/runRecords.js';
export { judge, verdict, CHECKS, type Verdict } from '../model/judge.js';
export { INVARIANTS, INVARIANT_CODES, describeViolation, invariantKind, type Violation, type InvariantCode } from '../model/violation.js';
export { allowed, allowedFile, firstSkip, TERMINAL_OPERATION_STATES } from '../model/lifecycle.js';
export { ServiceModel } from '../model/serviceModel.js';
export type { JudgeInput } from '../model/evidence.js';
export type { Escape } from '../simulator/sandbox/ambientGuard.js';
export { checkJournal, type CheckJournalOptions } from './checkJournal.js';
export { saveRegression, loadRegressions, scenarioHash, REGRESSIONS_DIR, type Regression, type RegressionInfo } from './regressions.js';
export { MUTANTS, mutantNamed, type Mutant } from './journals/mutants/index.js';
export { huntJournal, type HuntResult, type HuntOptions } from './mutation.js';
export { WorkerPool, type PoolOptions, type RunOutcome, type LoadedJournal } from './pool/workerPool.js';
export { bundledJournal, journalRefOf, MUTANT_NAMES, type JournalRef } from './isolation/journalRef.js';
export { hunt, type Finding } from './runner/hunt.js';
export { writeFileDurably } from './durableFile.js';
