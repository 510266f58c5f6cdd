/**
 * Loads the journal under test: the bundled reference (default), a bundled mutant by name, or a
 * user's module (TypeScript through tsx) whose default export or named `journal` is a JournalAdapter.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JournalAdapter } from '../contract.js';
import { DurasimError } from '../failure.js';
import { MUTANTS } from '../journals/mutants/index.js';
import { referenceJournal } from '../journals/reference.js';

export interface LoadedJournal {
  journal: JournalAdapter;
  /** How to name it again on a command line (for the replay command). */
  spec: string;
}

export function isJournalAdapter(value: unknown): value is JournalAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.name === 'string' && candidate.name.length > 0 && typeof candidate.run === 'function' && typeof candidate.inspect === 'function';
}

function describeShape(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  const keys = Object.keys(value);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.join(', ')}`;
}

export async function loadJournal(spec: string | undefined): Promise<LoadedJournal> {
  if (spec === undefined || spec === 'reference') return { journal: referenceJournal, spec: 'reference' };
  const path = resolve(spec);
  if (!existsSync(path)) {
    const mutant = MUTANTS.find((m) => m.journal.name === spec);
    if (mutant) return { journal: mutant.journal, spec };
    throw new DurasimError('load the journal', `no file at ${path}, and "${spec}" is not a bundled journal`, `Pass a path to your adapter module, "reference", or one of the mutants: ${MUTANTS.map((m) => m.journal.name).join(', ')}`);
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new DurasimError('load the journal', `importing ${spec} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, 'Fix the module so it imports cleanly');
  }
  for (const candidate of [module.default, module.journal]) if (isJournalAdapter(candidate)) return { journal: candidate, spec };
  const found = Object.keys(module).length === 0 ? 'no exports' : `exports ${Object.keys(module).map((k) => `${k} (${describeShape(module[k])})`).join(', ')}`;
  throw new DurasimError(
    'load the journal',
    `${spec} has ${found}, but no JournalAdapter`,
    'Export one as the default export or as "journal": an object with name (string), run(env, task) and inspect(disk)',
  );
}
