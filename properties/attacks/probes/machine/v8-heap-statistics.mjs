// Tries: v8.getHeapStatistics() (the real heap, different every run), fed into the step count.
// Expected: refused — a real measurement that differs run to run; nothing serves it (README "The sandbox").
// API: getHeapStatistics|v8
import { getHeapStatistics } from 'node:v8';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('v8-heap-statistics', () => observe('heap', getHeapStatistics().used_heap_size));
