/**
 * Native addons a journal imports. An addon's C code reads and writes files, takes locks and reads
 * the clock with no call through Node's APIs: the simulated disk never sees its writes, a crash
 * state cannot include them, and its binary cannot even load from a bundle (bindings and
 * node-gyp-build look for it beside a package.json). Such a module is refused before any run, with
 * exit 4 (a sandbox escape), naming the addon and the journal's import line that brings it in —
 * never left to fail as a journal error in every run. The addons durasim serves itself (SERVED_ADDONS:
 * better-sqlite3, on SQLite compiled to WebAssembly over the simulated disk) are substituted at
 * bundling instead (bundleJournal.ts).
 *
 * A package is a native addon when it builds one (a `binding.gyp` at its root, or `"gypfile": true`
 * in its package.json), or when the journal's code reaches a `.node` binary itself (a prebuilt
 * addon's platform package, as napi-rs ships them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DurasimError } from '../../model/contract/failure.js';

/** The package a file in node_modules belongs to: its name and root folder; undefined outside node_modules. */
export function packageOf(file: string): { name: string; root: string } | undefined {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) return undefined;
  const rest = file.slice(at + marker.length).split(sep);
  const scoped = rest[0]?.startsWith('@') === true;
  const parts = rest.slice(0, scoped ? 2 : 1);
  if (parts.length < (scoped ? 2 : 1) || parts.some((part) => part.length === 0)) return undefined;
  return { name: parts.join('/'), root: join(file.slice(0, at + marker.length), ...parts) };
}

const verdicts = new Map<string, boolean>();

/** Whether the package at `root` builds a native addon (binding.gyp, or gypfile in its package.json). */
function buildsAddon(root: string): boolean {
  let verdict = verdicts.get(root);
  if (verdict === undefined) {
    verdict = existsSync(join(root, 'binding.gyp'));
    if (!verdict) {
      try {
        verdict = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { gypfile?: unknown }).gypfile === true;
      } catch {
        verdict = false;
      }
    }
    verdicts.set(root, verdict);
  }
  return verdict;
}

/** The native addon a resolved module is (its package's name, or the binary's path), or undefined. */
export function nativeAddonOf(resolved: string): string | undefined {
  const pkg = packageOf(resolved);
  if (resolved.endsWith('.node')) return pkg?.name ?? resolved;
  return pkg !== undefined && buildsAddon(pkg.root) ? pkg.name : undefined;
}

/** A module a journal imports where it was found: the importing file, and the specifier as written. */
export interface AddonImport {
  addon: string;
  importer: string;
  specifier: string;
}

/** The line of `file` that imports or requires `specifier` (1-based), or undefined when none names it literally. */
export function importLineOf(file: string, specifier: string): { line: number; text: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const quoted = [`'${specifier}'`, `"${specifier}"`, `\`${specifier}\``];
  const lines = text.split('\n');
  const index = lines.findIndex((line) => quoted.some((q) => line.includes(q)));
  return index < 0 ? undefined : { line: index + 1, text: (lines[index] as string).trim() };
}

/**
 * The journal's own import that brings in the addon: walking up from the file that imports it, the
 * first importer outside node_modules (the journal's own file), with the specifier it names there.
 * `importers` maps a resolved file to the file and specifier that first imported it.
 */
export function journalImportOf(found: AddonImport, importers: ReadonlyMap<string, { importer: string; specifier: string }>): { file: string; specifier: string } {
  let step = { importer: found.importer, specifier: found.specifier };
  const seen = new Set<string>();
  while (packageOf(step.importer) !== undefined && !seen.has(step.importer)) {
    seen.add(step.importer);
    const up = importers.get(step.importer);
    if (up === undefined) break;
    step = up;
  }
  return { file: step.importer, specifier: step.specifier };
}

/** Thrown at bundling: a native addon durasim does not serve. The CLI says it as a sandbox escape (exit 4). */
export class UnservedAddonError extends DurasimError {
  readonly addon: string;
  constructor(found: AddonImport, importers: ReadonlyMap<string, { importer: string; specifier: string }>, served: readonly string[]) {
    const own = journalImportOf(found, importers);
    const line = importLineOf(own.file, own.specifier);
    const where = `${relative(process.cwd(), own.file) || own.file}${line ? `:${line.line} (${line.text})` : ''}`;
    const through = own.specifier === found.specifier || found.addon === own.specifier ? '' : ` through ${own.specifier}`;
    super(
      'load the journal',
      `${where} imports ${found.addon}${through}, a native addon: its C code reads and writes files out of the simulated disk's sight (no crash state, no power loss, no I/O error could reach what it keeps), and it cannot load from the journal's bundle`,
      served.length > 0 ? `durasim serves ${served.join(', ')} in its place; keep the journal's state through ${served.length > 1 ? 'one of them' : 'it'} or through node:fs (docs/sqlite.md)` : "Keep the journal's state through node:fs",
    );
    this.name = 'UnservedAddonError';
    this.addon = found.addon;
  }
}
