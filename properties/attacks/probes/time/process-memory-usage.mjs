// Tries: process.memoryUsage() (the real heap, different every run), fed into the step count.
// Expected: refused — a real measurement that differs run to run; nothing serves it (README "The sandbox").
// API: memoryUsage
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-memory-usage', () => observe('memoryUsage', process.memoryUsage().heapUsed));
