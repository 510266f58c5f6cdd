// Tries: perf_hooks.monitorEventLoopDelay (a real-time histogram), sampled across a sleep, fed into the step count.
// Expected: refused — a real clock measurement; nothing serves it (README "The sandbox").
// API: monitorEventLoopDelay
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('monitor-event-loop-delay', async () => {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await sleep(100);
  histogram.disable();
  await observe('monitorEventLoopDelay', histogram.max);
});
