/**
 * Modules a journal loads at run time by a specifier the bundle could not see — `import(name)` with
 * a computed name (a plugin, a lazily loaded dependency): esbuild lowers such an import to a
 * require() of the bundle's (bundleJournal.ts), and this serves it. The module is resolved from the
 * journal's folder as Node would (its "exports", the import and require conditions), bundled on
 * first use in this thread (esbuild, synchronously, outside the journal's turn) and evaluated afresh
 * in every incarnation that loads it, once per incarnation, as a restarted process loads it.
 *
 * - A name that resolves to nothing fails as Node's import() fails (ERR_MODULE_NOT_FOUND): the
 *   journal may catch it, as it would in production.
 * - A module that resolves but cannot be bundled (a syntax esbuild refuses, top-level await) is
 *   durasim's limit, not the journal's: it is recorded as an escape (a finding, exit 4) and fails.
 * - import.meta inside such a module reads the entry's file (a limit of bundling it whole).
 * - It is where the journal sees it (journalPaths.ts: /journal/…): its __filename, its stacks, and a
 *   name that resolves to nothing says the journal's entry there, never the real folder.
 */
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileFunction } from 'node:vm';
import { DurasimError } from '../../model/contract/failure.js';
import { asModuleLoad, claimMachinery, outsideTurn, turnHolder } from '../../simulator/sandbox/ambientGuard.js';
import { bracketLazyModules, LOAD_PARAM, loadBracket } from './moduleLoads.js';
import { CODE_ROOT } from '../ownFiles.js';
import { BUNDLE_OPTIONS } from './bundleJournal.js';
import { journalPath } from './journalPaths.js';

export type ModuleBody = (exports: object, require: (id: string) => unknown, module: { exports: Record<string, unknown> }, __filename: string, __dirname: string, load: typeof loadBracket) => void;

interface Compiled {
  body: ModuleBody;
  file: string;
}

/** durasim's own folders, shared rather than bundled (as bundleJournal.ts shares them). */
const OWN = ['src', 'model', 'simulator'].map((folder) => `${join(CODE_ROOT, folder)}${sep}*`);

/** Bundling is durasim's own work (esbuild runs a child process, node:vm compiles): it passes the guards of a thread that runs journals. */
const machinery = claimMachinery();

/** The bundles of dynamically loaded modules this thread made, by the folder they were asked from and the name. */
const compiled = new Map<string, Compiled | Error>();

function notFound(id: string, from: string): Error {
  return Object.assign(new Error(`Cannot find module '${id}' imported from ${from}`), { code: 'ERR_MODULE_NOT_FOUND' });
}

/** Bundles `id` as resolved from `dir` into one CommonJS body, the journal seeing it where journalPaths.ts puts it; undefined when it resolves to nothing. */
function bundle(id: string, dir: string, from: string, journalFile: string): Compiled | Error {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  let output: import('esbuild').BuildResult & { outputFiles: import('esbuild').OutputFile[] };
  try {
    output = esbuild.buildSync({
      ...BUNDLE_OPTIONS,
      // Modules named from the journal's folder, as its bundle's are (esbuild names a CommonJS module's wrapper by its path).
      absWorkingDir: dir,
      stdin: { contents: `module.exports = require(${JSON.stringify(id)});`, resolveDir: dir, sourcefile: `import(${JSON.stringify(id)})`, loader: 'js' },
      // durasim's own modules are shared, as the journal's bundle shares them (no plugin runs in a synchronous build).
      external: ['durasim', 'durasim/*', '*.node', ...OWN],
    });
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0]?.text ?? String(error);
    if (/^Could not resolve/.test(first)) return notFound(id, from);
    return new DurasimError('load a module the journal imported', `import(${JSON.stringify(id)}) from ${from} resolves, but durasim could not bundle it: ${first}`, 'Import it with a string literal, or a template like `./plugins/${name}.js`, so the journal\'s bundle holds it');
  }
  const inputs = Object.keys(output.metafile?.inputs ?? {}).filter((path) => !path.startsWith('<stdin>'));
  const file = journalPath(journalFile, inputs.length > 0 ? join(dir, inputs[0] as string) : join(dir, id));
  const code = output.outputFiles[0]?.text ?? '';
  return { body: compileFunction(bracketLazyModules(code), ['exports', 'require', 'module', '__filename', '__dirname', LOAD_PARAM], { filename: file }) as unknown as ModuleBody, file };
}

/**
 * One incarnation's loader of dynamically imported modules: each evaluated at most once in the
 * incarnation (as Node caches a module in one process), afresh in the next. `require` is the
 * incarnation's own (the bundle's shared modules, builtins, and this loader).
 */
export function dynamicLoader(journalFile: string, require: (id: string) => unknown): (id: string) => unknown {
  const dir = dirname(journalFile);
  const loaded = new Map<string, unknown>();
  return (asked) => {
    // The name as a string, made in the journal's turn (a toString of its own runs there).
    const id = String(asked);
    const key = `${dir}\0${id}`;
    if (loaded.has(key)) return loaded.get(key);
    let entry = compiled.get(key);
    if (entry === undefined) {
      entry = outsideTurn(() => machinery(() => bundle(id, dir, pathToFileURL(journalPath(journalFile, journalFile)).href, journalFile)));
      compiled.set(key, entry);
    }
    if (entry instanceof DurasimError) {
      turnHolder()?.onEscape(`import(${JSON.stringify(id)})`);
      throw entry;
    }
    if (entry instanceof Error) throw entry;
    const module = { exports: {} as Record<string, unknown> };
    loaded.set(key, module.exports);
    const body = entry.body;
    asModuleLoad(() => body(module.exports, require, module, entry.file, dirname(entry.file), loadBracket));
    loaded.set(key, module.exports);
    return module.exports;
  };
}
