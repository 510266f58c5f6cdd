/**
 * Loading a journal in the pool for a command (check, explore, replay, confirm): a module whose own
 * top level escapes the sandbox, or that imports a native addon durasim does not serve, is exit 4,
 * said in one line, before any run.
 */
import type { Escape } from '../../simulator/sandbox/ambientGuard.js';
import { escapeFix } from '../../simulator/sandbox/escapeCatalog.js';
import { DurasimError } from '../../model/contract/failure.js';
import type { JournalRef } from '../isolation/journalRef.js';
import { UnservedAddonError } from '../isolation/nativeAddons.js';
import type { LoadedJournal, WorkerPool } from '../pool/workerPool.js';
import { EXIT } from './exitCodes.js';

function loadEscapeLine(escapes: readonly Escape[]): string {
  const first = escapes[0] as Escape;
  return `the journal's module, at load: ${first.message} (${first.api}). ${first.fix ?? escapeFix(first.api, true)}`;
}

/** Loads the journal in the pool (its process.env `environment` as it loads); a module whose own top level escapes the sandbox is exit 4, said so. */
export async function loadOrEscape(pool: WorkerPool, ref: JournalRef, print: (line: string) => void, environment: Record<string, string> = {}): Promise<LoadedJournal | number> {
  let loaded: LoadedJournal;
  try {
    loaded = await pool.load(ref, environment);
  } catch (error) {
    // A native addon durasim does not serve: refused before any run, as an escape (nativeAddons.ts).
    if (error instanceof UnservedAddonError) {
      print(`sandbox: ${error.message}`);
      return EXIT.sandbox;
    }
    const escapes = (error as { escapes?: Escape[] }).escapes;
    if (!(error instanceof DurasimError) || !escapes || escapes.length === 0) throw error;
    print(`sandbox: ${loadEscapeLine(escapes)}`);
    return EXIT.sandbox;
  }
  if (loaded.loadEscapes.length === 0) return loaded;
  print(`sandbox: ${loadEscapeLine(loaded.loadEscapes)}`);
  return EXIT.sandbox;
}
