// Tries: crypto.pbkdf2's callback (thread pool, real time) raced against a pending 1 ms timer; the order fed into the step count.
// Expected: caught-by-rerun — documented: the order then depends on real time and check reports nondeterminism, exit 4 (docs/adapters.md).
// Revised: served — since issue 49 item 4 (52d1de0) thread-pool work completes at a deterministic point of
//   the simulation, so the race ends the same way in every run (exit 0 twice, the same steps).
import { pbkdf2 } from 'node:crypto';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('pbkdf2-vs-timer', async () => {
  const order = [];
  await Promise.all([
    new Promise((done) => setTimeout(() => done(order.push('timer')), 1)),
    new Promise((done) => pbkdf2('p', 's', 20_000, 32, 'sha256', () => done(order.push('pbkdf2')))),
  ]);
  await observe('order', order.join(','));
});
