/**
 * Bundles a journal's module graph into one function body that can be evaluated afresh for every
 * incarnation, as a restarted process loads its modules afresh (esbuild, once per run of durasim).
 *
 * Rules:
 * - Bundled (fresh every time): the journal's own files and everything they import from
 *   node_modules.
 * - Shared (loaded once): Node's builtins (guarded by the sandbox) and durasim itself — the
 *   package `durasim` and durasim's own src/, model/ and simulator/ folders, except its bundled
 *   journals (src/journals/), which are journals like any other.
 * - import.meta.url, .dirname and .filename say where the journal sees each file (journalPaths.ts:
 *   /journal/…), and the bundle names its modules from the entry's folder: nothing in it or in
 *   what it does says where the journal is on the real machine.
 * - Top-level await cannot run afresh synchronously: such a journal is refused with a fix.
 * - A native addon is refused, named with the journal's import line (nativeAddons.ts): its C code
 *   works out of the simulated world's sight.
 * - import() of a string or a template (`./plugins/${name}.js`) is bundled; of a name known only at
 *   run time, it is loaded then (dynamicModules.ts).
 */
import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import { DurasimError } from '../../model/contract/failure.js';
import { CODE_ROOT, ownModule } from '../ownFiles.js';
import { notAFileReason } from '../readInputFile.js';
import { withRealMeta } from '../bin/graph.mjs';
import type { JournalRef } from './journalRef.js';
import { journalPath } from './journalPaths.js';
import { nativeAddonOf, UnservedAddonError, type AddonImport } from './nativeAddons.js';

/** Native addons durasim serves in place of the real one: the module a journal gets instead (simulator/sqlite/database.ts: SQLite compiled to WebAssembly over the simulated machine). */
const SERVED_MODULES: Readonly<Record<string, string>> = { 'better-sqlite3': ownModule('simulator/sqlite/database') };
export const SERVED_ADDONS: readonly string[] = Object.keys(SERVED_MODULES);
/** The shared ids of served addons' stand-ins: a journal gets the thread's own instance of these (journalSideGraph.ts). */
export const SERVED_MODULE_IDS: readonly string[] = Object.values(SERVED_MODULES);

/** Whether a bundle imports a native addon durasim serves (better-sqlite3): a real process of a confirmation loads the real one for it. */
export function importsServedAddon(bundle: { shared: readonly string[] }): boolean {
  return Object.values(SERVED_MODULES).some((id) => bundle.shared.includes(id));
}

/** What a worker needs to evaluate a journal: the bundle, and the shared modules it requires. */
export interface JournalBundle {
  ref: JournalRef;
  code: string;
  /** Module ids the bundle requires that are durasim's own (absolute paths, or "durasim"). */
  shared: string[];
  /** The bundle's source map (JSON, its sources absolute): a stack of the journal's code names its own files and lines. */
  map?: string;
}

const SHARED_FOLDERS = ['src', 'model', 'simulator'].map((folder) => join(CODE_ROOT, folder) + sep);
const OWN_JOURNALS = join(CODE_ROOT, 'src', 'journals') + sep;
const BUILTINS = new Set(builtinModules);

/** durasim's own code, shared by every instance (its bundled journals excepted). */
export function isDurasimOwn(path: string): boolean {
  return SHARED_FOLDERS.some((folder) => path.startsWith(folder) && !path.slice(folder.length).includes(`node_modules${sep}`)) && !path.startsWith(OWN_JOURNALS);
}


/**
 * How a journal's code is bundled: one CommonJS body for Node 20 (evaluated afresh per incarnation);
 * an import() of a name known only at run time becomes a require() the loader serves (dynamicModules.ts).
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  write: false,
  metafile: true,
  logLevel: 'silent',
  supported: { 'dynamic-import': false },
} as const;

/** What bundling saw of native addons: the first one imported, and who imported each file (to name the journal's own import line). */
interface AddonWatch {
  found: AddonImport | undefined;
  importers: Map<string, { importer: string; specifier: string }>;
}

function sharing(entryFile: string, watch: AddonWatch): Plugin {
  return {
    name: 'durasim-sharing',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === 'resolving') return undefined;
        // import(`./plugins/${name}.js`): esbuild bundles every file the pattern matches itself.
        if (args.kind === 'dynamic-import' && args.path.includes('*')) return undefined;
        if (args.path.startsWith('node:') || BUILTINS.has(args.path)) return { path: args.path, external: true };
        if (args.path === 'durasim' || args.path.startsWith('durasim/')) return { path: 'durasim', external: true };
        // A native addon durasim serves: its own module, shared (its per-process state is the world's).
        const served = SERVED_MODULES[args.path];
        if (served !== undefined) return { path: served, external: true };
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (!watch.importers.has(resolved.path)) watch.importers.set(resolved.path, { importer: args.importer, specifier: args.path });
        // A native addon is refused once bundling ends (nativeAddons.ts): the first one is named.
        const addon = nativeAddonOf(resolved.path);
        if (addon !== undefined) {
          watch.found ??= { addon, importer: args.importer, specifier: args.path };
          return { path: resolved.path, external: true };
        }
        // An import of a FIFO or a device would hold the bundle forever: refused by name.
        const notAFile = notAFileReason(resolved.path);
        if (notAFile !== undefined) return { errors: [{ text: `${notAFile}, imported as ${args.path}` }] };
        if (isDurasimOwn(resolved.path)) return { path: resolved.path, external: true };
        return { path: resolved.path, ...(resolved.sideEffects === false ? { sideEffects: false } : {}) };
      });
      // import.meta has no meaning in one bundle: give every file its own values, where the journal sees it.
      build.onLoad({ filter: /\.(m|c)?(t|j)sx?$/ }, async (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        return { contents: await withRealMeta(text, journalPath(entryFile, args.path)), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

export async function bundleJournal(ref: JournalRef): Promise<JournalBundle> {
  // esbuild loads on first use: a worker thread (which never bundles) does not pay for it. By require,
  // not import(): Node's ESM loader scans a CommonJS package's whole source for its exports first, and
  // a check's first bundle cost ~70 ms more CPU that way (esbuild's main.js loaded, its service started).
  const { build } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  let output;
  const watch: AddonWatch = { found: undefined, importers: new Map() };
  try {
    // Modules named from the entry's folder (esbuild names a CommonJS module's wrapper, and so its frames, by its path).
    output = await build({ ...BUNDLE_OPTIONS, absWorkingDir: dirname(ref.file), entryPoints: [ref.file], sourcemap: 'external', outfile: join(dirname(ref.file), 'durasim-bundle.js'), plugins: [sharing(ref.file, watch)] });
  } catch (error) {
    if (watch.found !== undefined) throw new UnservedAddonError(watch.found, watch.importers, SERVED_ADDONS);
    const messages = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    const first = messages[0];
    // esbuild names a file from the entry's folder (absWorkingDir); the message, from the current one.
    const file = first?.location ? relative(process.cwd(), resolve(dirname(ref.file), first.location.file)) : undefined;
    if (first?.text.includes('Top-level await')) {
      throw new DurasimError('load the journal', `${file ?? ref.spec} uses top-level await, which cannot run afresh for every incarnation`, 'Move the awaited setup into run(), or behind a function the journal calls');
    }
    const where = first?.location ? ` (${file}:${first.location.line})` : '';
    throw new DurasimError('load the journal', `bundling ${ref.spec} failed: ${first?.text ?? String(error)}${where}`, 'Fix the module so it compiles');
  }
  if (watch.found !== undefined) throw new UnservedAddonError(watch.found, watch.importers, SERVED_ADDONS);
  const code = output.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const mapFile = output.outputFiles.find((file) => file.path.endsWith('.map'));
  let map: string | undefined;
  if (mapFile) {
    const parsed = JSON.parse(mapFile.text) as { sources: string[]; sourcesContent?: unknown };
    parsed.sources = parsed.sources.map((source) => join(dirname(ref.file), source));
    delete parsed.sourcesContent; // the files are where they are: only the positions travel
    map = JSON.stringify(parsed);
  }
  const shared = new Set<string>();
  for (const input of Object.values(output.metafile.inputs)) {
    // durasim's own modules only (the metafile also lists a glob import's pattern and esbuild's "<runtime>").
    for (const imported of input.imports) if (imported.external && (imported.path === 'durasim' || isDurasimOwn(imported.path))) shared.add(imported.path);
  }
  return { ref, code, shared: [...shared].sort(), ...(map ? { map } : {}) };
}
