/**
 * `durasim/internals`: what durasim's own tools are made of — the worker pool, the hunt and the
 * mutants, the regression corpus, the service and lifecycle models, the house message formatter.
 * Exported for tools built beside durasim; unlike the root export (src/index.ts, docs/api.md),
 * nothing here is promised to stay as it is between versions.
 */
export { failureMessage } from '../model/contract/failure.js';
export { reportUncaught } from '../simulator/simulate.js';
export { CRASH_MODES, DEFAULT_STORE, STORE_CALL_FAULTS, RESPONSE_FAULTS } from '../simulator/scenario/scenario.js';
export { ServiceCore, type Effect, type ServiceReply } from '../simulator/service/service.js';
export { serviceHandlers } from '../simulator/service/serviceHandlers.js';
export { CHECKS } from '../model/judge.js';
export { invariantKind } from '../model/violation.js';
export { allowed, allowedFile, firstSkip, TERMINAL_OPERATION_STATES } from '../model/lifecycle.js';
export { ServiceModel } from '../model/serviceModel.js';
export { saveRegression, loadRegressions, scenarioHash, REGRESSIONS_DIR, type Regression, type RegressionInfo } from './regressions.js';
export { MUTANTS, mutantNamed, type Mutant } from './journals/mutants/index.js';
export { huntJournal, type HuntResult, type HuntOptions } from './mutation.js';
export { WorkerPool, type PoolOptions, type RunOutcome, type LoadedJournal } from './pool/workerPool.js';
export { bundledJournal, journalRefOf, MUTANT_NAMES, type JournalRef } from './isolation/journalRef.js';
export { hunt, type Finding } from './runner/hunt.js';
export { writeFileDurably } from './durableFile.js';
