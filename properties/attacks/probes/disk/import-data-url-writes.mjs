// Tries: dynamic import() of a data: URL module whose top level writes the canary file with fs.
// Expected: refused — a disk call while a module loads stays refused (docs/adapters.md, loading).
// API: writeFileSync|data:
// Revised: served — a data: URL module is code, not I/O: imported inside run() it is evaluated under the
//   journal's turn, and its fs write meets the simulated disk like any other (both runs exit 0, the canary
//   folder empty). The first expectation read 'while a module loads' for a module imported at run time.
import { probe, canary } from '../../lib/probe.mjs';

const code = `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(canary('data-url'))}, 'x');`;
export default probe('import-data-url-writes', () => import(`data:text/javascript,${encodeURIComponent(code)}`));
