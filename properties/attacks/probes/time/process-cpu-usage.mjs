// Tries: process.cpuUsage() (real CPU time, different every run), fed into the step count.
// Expected: refused — a real measurement that differs run to run; nothing serves it (README "The sandbox").
// API: cpuUsage
// Revised: served — docs/adapters.md serves process.cpuUsage() as zero (no real CPU reaches a run); the first
//   expectation quoted an older README.
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-cpu-usage', () => observe('cpuUsage', process.cpuUsage().user));
