// Tries: Math.random captured at the module's top level (const r = Math.random), called in run().
// Expected: served — a reference captured at import is guarded and served too (docs/adapters.md "What the sandbox does").
import { probe, observe } from '../../lib/probe.mjs';

const random = Math.random;
export default probe('math-random-captured', () => observe('captured Math.random', random()));
