// Tries: dynamic import() of a data: URL module whose top level writes the canary file with fs.
// Expected: refused — a disk call while a module loads stays refused (docs/adapters.md, loading).
// API: writeFileSync|data:
import { probe, canary } from '../../lib/probe.mjs';

const code = `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(canary('data-url'))}, 'x');`;
export default probe('import-data-url-writes', () => import(`data:text/javascript,${encodeURIComponent(code)}`));
