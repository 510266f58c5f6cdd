/**
 * The benchmark's standard workload: 3 publishes, 1 lookup, 1 edit, with swarm faults — up to 3
 * crashes (any crash mode), response faults, duplicate delivery and user edits.
 */
import { scenarioArbitrary } from '../arbitraries.js';

export const standardWorkload = scenarioArbitrary({ faults: ['crash', 'disk', 'response', 'duplicate', 'user'], allOperations: true });
