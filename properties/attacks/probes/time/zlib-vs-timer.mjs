// Tries: zlib.gzip's callback (thread pool, real time) raced against a pending 1 ms timer; the order fed into the step count.
// Expected: caught-by-rerun — documented: the order then depends on real time and check reports nondeterminism, exit 4 (docs/adapters.md).
// Revised: served — as pbkdf2-vs-timer: zlib's work completes at a deterministic point (exit 0 twice, the
//   same steps).
import { gzip } from 'node:zlib';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('zlib-vs-timer', async () => {
  const order = [];
  await Promise.all([
    new Promise((done) => setTimeout(() => done(order.push('timer')), 1)),
    new Promise((done) => gzip(Buffer.alloc(4_000_000, 7), () => done(order.push('gzip')))),
  ]);
  await observe('order', order.join(','));
});
