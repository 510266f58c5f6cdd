// Tries: v8.writeHeapSnapshot into the canary folder (a real file written by V8 itself).
// Expected: refused — a real file outside node:fs must be refused (README "The sandbox").
// API: writeHeapSnapshot
import { writeHeapSnapshot } from 'node:v8';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('heap-snapshot', () => writeHeapSnapshot(canary('heap.heapsnapshot')));
