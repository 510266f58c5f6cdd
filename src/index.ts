/**
 * durasim's public API: what a user writes journals and journal tests with (docs/api.md lists
 * every export and its purpose). The contract a journal implements, the reference journals to
 * start from, the world to run one in (simulate, scenarios and their generator), the judge, and
 * checkJournal for a test runner. Everything else durasim is made of is `durasim/internals`: no
 * promise is made about it between versions.
 */
export * from '../model/contract/contract.js';
export { DurasimError } from '../model/contract/failure.js';
export { digestOf } from '../model/contract/digest.js';
export { realEnv, type RealEnvOptions } from './realEnv.js';
export { referenceJournal, ReferenceRun, journalFrom, REFERENCE_SETTINGS, type ReferenceSettings } from './journals/reference.js';
/** What a ReferenceRun records and reads back (a subclass that keeps its records elsewhere overrides loadRecords and record). */
export type { LogRecord } from './journals/jsonlLog.js';
export { coordinatedJournal, CoordinatedRun, coordinatedJournalFrom } from './journals/coordinated.js';
export { StoreTimeoutError } from '../simulator/node/simStore.js';
export { scenarioArbitrary, baseScenario, featuredScenario, FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES, STANDARD_OPERATIONS, type FaultKind, type OperationKind, type TaskFeature, type ScenarioArbitraryOptions } from './arbitraries.js';
export { simulate, type SimulateOptions, type SimulationResult, type ServiceRequest } from '../simulator/simulate.js';
export { traceHash, formatTraceEntry, type TraceEntry } from '../simulator/world/trace.js';
export {
  parseScenario,
  parseScenarioText,
  scenarioToJson,
  SCENARIO_FORMAT,
  SCENARIO_VERSION,
  type Scenario,
  type Fault,
  type CrashFault,
  type CrashMode,
  type IoErrorFault,
  type ResponseFault,
  type ResponseFaultKind,
  type UserEditFault,
  type DuplicateDeliveryFault,
  type ConcurrentCallFault,
  type ServiceRestartFault,
  type PauseFault,
  type TakeoverFault,
  type StoreCallFault,
  type StoreCallFaultKind,
  type StoreRestartFault,
  type StoreEditFault,
  type CancelFault,
  type InputChangeFault,
  type ScenarioStore,
} from '../simulator/scenario/scenario.js';
export type { StopReason, CrashRecord, ExitRecord } from '../simulator/world/runRecords.js';
export type { Escape } from '../simulator/sandbox/ambientGuard.js';
export { judge, verdict, type Verdict } from '../model/judge.js';
export type { JudgeInput } from '../model/evidence.js';
export { INVARIANTS, INVARIANT_CODES, describeViolation, type Violation, type InvariantCode } from '../model/violation.js';
export { checkJournal, type CheckJournalOptions } from './checkJournal.js';
