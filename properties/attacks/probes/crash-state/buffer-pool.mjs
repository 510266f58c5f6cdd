// Tries: Node's shared Buffer pool: a marker written through Buffer.from (small buffers share one 8 KB slab),
//   looked for in the slab by the next incarnation.
// Expected: harmless — a new process has a new pool.
// Oracle: the marker in the slab at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('buffer-pool', () => {
  const slab = Buffer.from(Buffer.from('x').buffer);
  const at = slab.indexOf('ATTACK-POOL-MARK ');
  if (at >= 0) leak('a Buffer pool marker survived', slab.subarray(at, at + 40).toString('latin1'));
  Buffer.from(`ATTACK-POOL-MARK pid ${process.pid}.`);
});
