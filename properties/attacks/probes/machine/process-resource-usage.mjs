// Tries: process.resourceUsage() (real page faults and context switches, different every run), fed into the step count.
// Expected: refused — a real measurement that differs run to run; nothing serves it (README "The sandbox").
// API: resourceUsage
// Revised: served — docs/adapters.md serves process.resourceUsage() as zero, like cpuUsage; the first
//   expectation quoted an older README.
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-resource-usage', () => observe('resourceUsage', process.resourceUsage().voluntaryContextSwitches));
