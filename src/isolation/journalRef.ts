/**
 * A journal named so that any thread can load it: the module file and the export that holds the
 * adapter. Bundled journals (the reference and the mutants) are named by their journal name.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DurasimError } from '../../model/contract/failure.js';
import { ownModule } from '../ownFiles.js';
import { notAFileReason } from '../readInputFile.js';

export interface JournalRef {
  /** Absolute path of the module whose export is the JournalAdapter. */
  file: string;
  /** The export to use; default: the default export, else `journal`. */
  exportName?: string;
  /** How the user named it (a bundled name or the path given), for the replay command. */
  spec: string;
}

export const MUTANT_NAMES = [
  'send-before-dispatched', 'no-fsync', 'timeout-means-failed', 'conflict-as-success', 'trust-any-receipt', 'blind-overwrite',
  'new-process-args', 'succeeded-before-receipt', 'resend-instead-of-query', 'torn-tail-fatal', 'retry-unsafe-write', 'accepted-as-success',
  'unsynced-delivery', 'fsync-failure-retried', 'short-write-ignored', 'zero-tail-reset',
  'overwrite-in-place', 'lease-by-own-clock', 'no-fencing-token', 'continues-after-lost-cas', 'ignores-takeover', 'projection-before-event', 'repairs-projection', 'token-in-checkpoint', 'retries-invalid-argument', 'ignores-retry-after', 'budget-in-memory', 'cancel-checked-at-start', 'cancel-rolls-back', 'input-checked-once',
  'cleanup-by-prefix', 'cleanup-deletes-journal', 'registers-after-create', 'deletion-not-synced', 'wait-in-memory', 'pause-in-memory', 'lease-check-then-create', 'claim-after-lease',
] as const;


const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The bundled journal of that name, if there is one. */
export function bundledJournal(name: string): JournalRef | undefined {
  if (name === 'reference') return { file: ownModule('src/journals/reference'), exportName: 'referenceJournal', spec: name };
  if (name === 'coordinated') return { file: ownModule('src/journals/coordinated'), exportName: 'coordinatedJournal', spec: name };
  if ((MUTANT_NAMES as readonly string[]).includes(name)) return { file: ownModule(`src/journals/mutants/${camel(name)}`), exportName: 'journal', spec: name };
  return undefined;
}

/** The journal a command line names: a path to a module, "reference" (the default), or a mutant's name. */
export function journalRefOf(spec: string | undefined): JournalRef {
  const name = spec ?? 'reference';
  const path = resolve(name);
  if (existsSync(path)) {
    // A FIFO, a device or a folder is refused here: bundling would read a FIFO or /dev/zero forever.
    const notAFile = notAFileReason(path, name);
    if (notAFile !== undefined) throw new DurasimError('load the journal', notAFile, 'Pass the path of your adapter module (a .ts, .mts or .js file)');
    return { file: path, spec: name };
  }
  const bundled = bundledJournal(name);
  if (bundled) return bundled;
  throw new DurasimError('load the journal', `no file at ${path}, and "${name}" is not a bundled journal`, `Pass a path to your adapter module, "reference", or one of the mutants: ${MUTANT_NAMES.join(', ')}`);
}
