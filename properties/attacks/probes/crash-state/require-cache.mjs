// Tries: a CommonJS module required at run time through module.createRequire (Node's require cache), holding
//   a list that each incarnation appends to.
// Expected: harmless — every incarnation evaluates the journal's modules afresh (docs/adapters.md, module memory).
// Oracle: a non-empty list at the start of run() came from an earlier incarnation.
import { createRequire } from 'node:module';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('require-cache', () => {
  const state = createRequire(import.meta.url)('../../lib/state.cjs');
  if (state.marks.length > 0) leak('a required module kept its state', state.marks.join(','));
  state.marks.push(`pid ${process.pid}`);
});
