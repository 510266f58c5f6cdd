// Tries: performance.eventLoopUtilization() (real idle and active times), fed into the step count.
// Expected: refused — a real clock measurement; nothing serves it (README "The sandbox").
// API: eventLoopUtilization
import { probe, observe } from '../../lib/probe.mjs';

export default probe('event-loop-utilization', () => observe('eventLoopUtilization', performance.eventLoopUtilization().active));
