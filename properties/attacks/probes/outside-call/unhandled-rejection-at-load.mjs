// Tries: a promise rejected at the module's top level that nobody handles.
// Expected: finding — in Node the process dies of it at start: the journal's own error (journal-error, exit 3).
import { probe } from '../../lib/probe.mjs';

Promise.reject(new Error('attack: rejected while loading'));
export default probe('unhandled-rejection-at-load');
