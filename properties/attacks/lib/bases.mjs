// The probes' base journals (lib/good.mjs, lib/unsynced.mjs) are examples/node-journal's journal.ts and
// journal-unsynced.ts with their types stripped by esbuild, under a two-line header. When the example
// changes they must be made again (`node properties/attacks/lib/bases.mjs`): a stale copy wraps a journal
// durasim no longer calls correct, and every probe on it reads as a finding (the run of c3d9c1a). Not a probe.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const example = join(here, '..', '..', '..', 'examples', 'node-journal');
export const BASES = [
  { file: 'good.mjs', source: 'journal.ts', header: ['The base journal every probe that expects a clean verdict wraps: examples/node-journal/journal.ts (the', 'correct Node-API journal the README says to copy), its types stripped by esbuild. Not a probe.'] },
  { file: 'unsynced.mjs', source: 'journal-unsynced.ts', header: ['The base journal the verdict-bending probes wrap: examples/node-journal/journal-unsynced.ts (the copy', 'that never fsyncs its log, found at once by check), its types stripped by esbuild. Not a probe.'] },
];

export const baseText = (base) => `${base.header.map((line) => `// ${line}\n`).join('')}${transformSync(readFileSync(join(example, base.source), 'utf8'), { loader: 'ts', format: 'esm', platform: 'node' }).code}`;

/** The base files that differ from what the example makes of them now. */
export const staleBases = () => BASES.filter((base) => readFileSync(join(here, base.file), 'utf8') !== baseText(base)).map((base) => base.file);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const base of BASES) writeFileSync(join(here, base.file), baseText(base));
  console.log(`properties/attacks/lib: ${BASES.map((b) => b.file).join(', ')} made from examples/node-journal`);
}
