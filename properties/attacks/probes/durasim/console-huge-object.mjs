// Tries: console.log of a deep, wide object (util.inspect work and output), then the journal's work.
// Expected: harmless — console output is kept in the trace, cut (docs/adapters.md).
import { probe } from '../../lib/probe.mjs';

export default probe('console-huge-object', () => {
  let node = {};
  const root = node;
  for (let i = 0; i < 10_000; i++) node = node.next = { i, wide: new Array(100).fill(i) };
  console.log(root);
  console.dir(root, { depth: null });
});
