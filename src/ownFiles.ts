/**
 * durasim's own files, wherever it runs from: its TypeScript sources (a clone, under tsx) or the
 * compiled package (dist/, plain Node). Every path to one of its own modules or data goes through here.
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when these are the TypeScript sources; false in the compiled package. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The folder that holds src/, model/ and simulator/: the repository, or dist/ in the package. */
export const CODE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The package's root: where package.json, schema/ and README.md are. */
export const PACKAGE_ROOT = basename(CODE_ROOT) === 'dist' && !FROM_SOURCE ? dirname(CODE_ROOT) : CODE_ROOT;

/** One of durasim's own modules, by its path from CODE_ROOT without extension: "src/index", say. */
export function ownModule(pathFromRoot: string): string {
  return join(CODE_ROOT, `${pathFromRoot}.${FROM_SOURCE ? 'ts' : 'js'}`);
}
