/**
 * Where a simulated process sees the journal's files: under /journal (the sandbox's JOURNAL_ROOT),
 * each at its place from the entry's folder — the entry is /journal/<its name>, a dependency one
 * folder up is /journal/@up/node_modules/… — never where they are on the real machine. The
 * journal's __filename, __dirname, import.meta and the frames of its stacks say these paths, so the
 * same journal in another folder (another checkout, another machine) runs the same trace. (A
 * require the journal makes itself, module.createRequire(import.meta.url), loads Node's builtins as
 * before; a file it names was never loadable under simulation: Node reads it through node:fs, which
 * is the simulated disk's.)
 */
import { dirname, relative, sep } from 'node:path';
import { JOURNAL_ROOT } from '../../simulator/sandbox/ambientGuard.js';

/** A folder above the entry's, as a path under /journal says it. */
const UP = '@up';

/** `file` (a real path) as the journal sees it, its entry being `entryFile`. */
export function journalPath(entryFile: string, file: string): string {
  const steps = relative(dirname(entryFile), file).split(sep).map((step) => (step === '..' ? UP : step));
  return [JOURNAL_ROOT, ...steps].join('/');
}
