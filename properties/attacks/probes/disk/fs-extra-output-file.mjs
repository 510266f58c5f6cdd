// Tries: fs-extra's outputFile (a library over fs, graceful-fs inside) to a path in the canary folder.
// Expected: served — a library's fs calls are the same served calls (docs/compatibility.md).
import fse from 'fs-extra';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('fs-extra-output-file', () => fse.outputFile(canary('fs-extra/x'), 'x'));
