/**
 * `npm run compatibility`: runs every row of the matrix (check, and confirm for a finding) and, when
 * every run agrees with the table, writes docs/compatibility.md (durably). A row that disagrees is
 * printed and nothing is written (exit 1). `-- --verify` (CI) writes nothing: it fails when a run
 * disagrees with the table or the doc is not the table, rendered.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileDurably } from '../../src/durableFile.js';
import { LIBRARIES } from './matrix.js';
import { renderMatrix, runRow } from './matrixRun.js';

const ROOT = resolve(import.meta.dirname, '../..');
let disagreements = 0;
for (const c of LIBRARIES) {
  const result = await runRow(c, { workers: 2 });
  const agrees = result.exit === c.exit && result.invariant === c.invariant && result.missing === c.missing && (c.exit === 0 || c.unconfirmed !== undefined || result.confirm?.exit === c.exit);
  process.stdout.write(`${agrees ? 'ok  ' : 'DIFF'} ${c.library}${c.journal ? ` (${c.journal})` : ''}: exit ${result.exit}${result.invariant ? ` ${result.invariant}` : ''}${result.missing ? ` (${result.missing})` : ''} after ${result.runsExecuted} runs${result.confirm ? `; confirm: ${result.confirm.verdict}` : ''}\n`);
  if (!agrees) disagreements++;
}
if (disagreements > 0) {
  process.stdout.write(`${disagreements} row(s) disagree with examples/libraries/matrix.ts: docs/compatibility.md left as it was\n`);
  process.exit(1);
}
const doc = join(ROOT, 'docs', 'compatibility.md');
if (process.argv.includes('--verify')) {
  if (readFileSync(doc, 'utf8') !== renderMatrix(LIBRARIES)) {
    process.stdout.write('docs/compatibility.md is not the table, rendered: run npm run compatibility\n');
    process.exit(1);
  }
  process.stdout.write('every row agrees with docs/compatibility.md\n');
} else {
  writeFileDurably(doc, renderMatrix(LIBRARIES));
  process.stdout.write('wrote docs/compatibility.md\n');
}
