// Tries: os.cpus() (the processors' model names).
// Expected: served — the simulated machine's two cores (docs/adapters.md).
// Oracle: the real processor model (passed by the runner).
import { cpus } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-cpus-model', () => {
  const model = cpus()[0]?.model;
  if (model === env('ATTACK_REAL_CPU')) leak('os.cpus', model);
});
