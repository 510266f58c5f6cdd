// Tries: Error.prepareStackTrace that throws, so that reading any error's stack throws, on the journal that
//   never fsyncs.
// Expected: finding — durasim must not fail on it: the write-ahead finding stands (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('prepare-stack-trace-throws', () => {
  Error.prepareStackTrace = () => { throw new Error('attack: no stacks today'); };
}, { base: unsynced });
