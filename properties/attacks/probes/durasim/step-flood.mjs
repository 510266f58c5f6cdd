// Tries: endless served steps (stat of the work folder) in run().
// Expected: finding — the step bound ends it as a liveness outcome (exit 3), never a hang (README "Bounds").
import { stat } from 'node:fs/promises';
import { probe } from '../../lib/probe.mjs';

export default probe('step-flood', async () => {
  for (;;) await stat('.');
});
