/**
 * Fresh instances of a bundled journal: the bundle is compiled once, and every call of `fresh()`
 * evaluates it anew — new module-level variables, new classes, new caches — as a restarted
 * process would. What the journal left on the objects every process of the thread shares is put
 * back first (globalThis, process, the intrinsics and the builtin modules it was handed:
 * sandbox/sharedObjects.ts): process memory dies with the process. durasim's own modules and
 * Node's builtins are shared (see bundleJournal); each instance gets its own copy of durasim's
 * modules' exports.
 */
import { builtinModules, createRequire, SourceMap } from 'node:module';
import { extname, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileFunction } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { DurasimError } from '../../model/contract/failure.js';
import { checkStateNames } from '../../model/stateNames.js';
import { SERVED_MODULE_IDS, type JournalBundle } from './bundleJournal.js';
import { CODE_ROOT } from '../ownFiles.js';
import { ownModuleOfGraph } from './sharedModules.js';
import { journalSideModules } from './journalSideGraph.js';
import { dynamicLoader, type ModuleBody } from './dynamicModules.js';
import { bracketLazyModules, LOAD_PARAM, loadBracket } from './moduleLoads.js';
import { journalPath } from './journalPaths.js';
import { asModuleLoad, claimMachinery, forgetProcessMemory, trackBuiltin, trackOwnModule } from '../../simulator/sandbox/ambientGuard.js';

export interface JournalInstances {
  /** A new instance of the journal's modules. */
  fresh(): JournalAdapter;
  /** A stack of the journal's code as its author reads it: its own frames (durasim's and Node's internals below them dropped), at their places in its source files. */
  journalStack(stack: string): string;
  /** What the journal wrote (console.log and friends) as the trace keeps it: the frames of a stack in it mapped as journalStack maps them, paths from the current folder. */
  outputText(text: string): string;
}

const BUILTINS = new Set(builtinModules);
/** Whether this is a worker thread (read as the module loads: a thread that runs journals says it is a main thread after). */
const IN_WORKER = !isMainThread;
/** Compiling a bundle is durasim's own work (node:vm is guarded in a thread that runs journals: sandbox/turn.ts). */
const machinery = claimMachinery();

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

/** The adapter among a module's exports, or a house-style error saying what was found instead. */
export function adapterOf(exports: Record<string, unknown>, spec: string, exportName?: string): JournalAdapter {
  // Its own state names, if it maps them, are checked as it loads (model/stateNames.ts).
  const checked = (adapter: JournalAdapter): JournalAdapter => (checkStateNames(adapter.states, spec), adapter);
  // The module itself is the adapter when it exports name, run and inspect one by one
  // (CommonJS `module.exports = { name, run, inspect }`, or ESM `export const name = …`).
  const candidates = exportName !== undefined ? [exports[exportName]] : [exports.default, exports.journal, exports];
  for (const candidate of candidates) if (isJournalAdapter(candidate)) return checked(candidate);
  const names = Object.keys(exports).filter((k) => k !== '__esModule');
  // Else the one adapter among its named exports (`export const myJournal = { name, run, inspect }`).
  const adapters = exportName === undefined ? names.filter((k) => isJournalAdapter(exports[k])) : [];
  if (adapters.length === 1) return checked(exports[adapters[0] as string] as JournalAdapter);
  if (adapters.length > 1) {
    throw new DurasimError('load the journal', `${spec} exports ${adapters.length} journal adapters (${adapters.join(', ')}), and durasim cannot tell which one to check`, `Export the one to check as the default export or as "journal", or put each in a module of its own`);
  }
  const found = names.length === 0 ? 'no exports' : `exports ${names.map((k) => `${k} (${describeShape(exports[k])})`).join(', ')}`;
  throw new DurasimError(
    'load the journal',
    `${spec} has ${found}, but no JournalAdapter`,
    'Export one as the default export or as "journal" (or export name, run and inspect themselves): an object with name (string), run(env, task) and inspect(disk)',
  );
}

/**
 * Outside an installed sandbox (a journal evaluated before any simulation, as the trace corpus
 * does): the enumerable keys of globalThis when the journal was compiled, any added later (an
 * assignment to globalThis, string- or symbol-keyed) the journal's process memory.
 */
function globalKeys(): PropertyKey[] {
  return [...Object.keys(globalThis), ...Object.getOwnPropertySymbols(globalThis)];
}

function forgetAddedGlobals(baseline: Set<PropertyKey>): void {
  for (const key of globalKeys()) if (!baseline.has(key)) Reflect.deleteProperty(globalThis, key);
}

/** A shared module's key in the thread's graph: its path from the code root without extension ("durasim" is src/index). */
function graphKey(id: string, durasimIndex: string): string {
  const path = relative(CODE_ROOT, id === 'durasim' ? durasimIndex : id);
  return path.slice(0, path.length - extname(path).length).split(sep).join('/');
}

let tsxRegistered = false;

/**
 * One of durasim's own modules by path, for a journal that shares one its thread's graph does not
 * hold (the public entry, "durasim"): a TypeScript source (a clone) loads through tsx, registered in
 * this thread the first time one is needed.
 */
async function importOwn(path: string): Promise<unknown> {
  // A process started with --import tsx loads TypeScript in its main thread; its worker threads do not.
  if (extname(path) === '.ts' && !tsxRegistered && (IN_WORKER || !process.execArgv.some((arg) => arg.includes('tsx')))) {
    const { register } = (await import('tsx/esm/api')) as { register: () => unknown };
    register();
    tsxRegistered = true;
  }
  return import(pathToFileURL(path).href);
}

/** Compiles a bundle in this thread; the shared modules come from the thread's graph, or are imported once, here. */
export async function compileJournal(bundle: JournalBundle, durasimIndex: string): Promise<JournalInstances> {
  const nodeRequire = createRequire(bundle.ref.file);
  const shared = new Map<string, unknown>();
  // Modules that stand for a native addon's package (the served better-sqlite3): their module.exports, shared as a builtin is.
  const packages = new Map<string, unknown>();
  // durasim's modules come from a copy of the thread's graph (journalSideGraph.ts), never the instances it runs, but a
  // served addon's stand-in: its per-process state is the world's.
  const copy = bundle.shared.some((id) => !SERVED_MODULE_IDS.includes(id)) ? await journalSideModules((importIt) => machinery(importIt)) : undefined;
  for (const id of bundle.shared) {
    const key = graphKey(id, durasimIndex);
    // Loading one is durasim's own work: it reads the real disk (a thread that runs journals refuses that to code in no turn).
    const namespace = ((SERVED_MODULE_IDS.includes(id) ? ownModuleOfGraph(key) : copy?.[key]) ?? (await machinery(() => importOwn(id === 'durasim' ? durasimIndex : id)))) as Record<string, unknown>;
    // A module that stands for a CommonJS package gives its module.exports as `moduleExports`.
    if (namespace.moduleExports !== undefined) packages.set(id, namespace.moduleExports);
    else shared.set(id, Object.assign(Object.create(null) as object, namespace, { __esModule: true }));
  }
  // Compiled where the journal sees itself (journalPaths.ts): its stacks and __filename name /journal/<entry>, never the real folder.
  const entry = journalPath(bundle.ref.file, bundle.ref.file);
  const code = bracketLazyModules(String(bundle.code));
  const body = machinery(() => compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname', LOAD_PARAM], { filename: entry })) as unknown as ModuleBody;
  const baseline = new Set(globalKeys());
  const dir = entry.slice(0, entry.lastIndexOf('/'));
  const builtin = (id: string, exports: unknown = nodeRequire(id)): unknown => {
    trackBuiltin(id, exports); // what the journal does to it is put back at the next incarnation's start
    return exports;
  };
  const fresh = (): JournalAdapter => {
    if (forgetProcessMemory() === undefined) forgetAddedGlobals(baseline);
    // durasim's modules outlive an incarnation in this thread, as builtins do: what one leaves on their exports (a property on
    // a function, an array changed, a class's prototype) is put back at the next one's start, as a builtin's is (tracked once
    // a baseline exists, before the first incarnation's code runs).
    for (const [id, namespace] of shared) trackOwnModule(id, namespace);
    // Each instance (an incarnation) has its own modules loaded at run time and its own copy of durasim's exports; builtins, native addons and their served stand-ins (a class, which a copy would not be) are shared.
    const own = new Map<string, unknown>();
    const sharedOf = (id: string): unknown => {
      if (!own.has(id)) own.set(id, Object.assign(Object.create(null) as object, shared.get(id)));
      return own.get(id);
    };
    const require = (id: string): unknown => (shared.has(id) ? sharedOf(id) : packages.has(id) ? builtin(id, packages.get(id)) : BUILTINS.has(id) || id.startsWith('node:') ? builtin(id) : id.endsWith('.node') ? nodeRequire(id) : dynamic(id));
    const dynamic = dynamicLoader(bundle.ref.file, require);
    const module = { exports: {} as Record<string, unknown> };
    // What the modules do while they load is no step (moduleLoads.ts).
    asModuleLoad(() => body(module.exports, require, module, entry, dir, loadBracket));
    return adapterOf(module.exports, bundle.ref.spec, bundle.ref.exportName);
  };
  const sourceMap = bundle.map ? new SourceMap(JSON.parse(bundle.map) as ConstructorParameters<typeof SourceMap>[0]) : undefined;
  /**
   * A stack frame at its place in the journal's source (the bundle mapped back: `name` says the
   * source's path, real for a report, as the journal sees it for the trace), or `machinery` for
   * durasim's own and Node's internals.
   */
  const frameOf = (frame: string, name: (source: string) => string = (source) => source): string | 'machinery' => {
    const at = /^(.*?)\(?([^()\s]+):(\d+):(\d+)\)?$/.exec(frame);
    if (at && at[2] === entry && sourceMap) {
      const found = sourceMap.findEntry(Number(at[3]) - 1, Number(at[4]) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      return found.originalSource ? frame.replace(`${at[2]}:${at[3]}:${at[4]}`, `${name(found.originalSource)}:${(found.originalLine ?? 0) + 1}:${(found.originalColumn ?? 0) + 1}`) : frame;
    }
    if (/node:internal|node:async_hooks|\.cache\/durasim\/graph-|\/durasim\/dist\//.test(frame) || (at && (at[2] as string).startsWith(CODE_ROOT) && !(at[2] as string).includes('node_modules'))) return 'machinery';
    return frame;
  };
  const journalStack = (stack: string): string => {
    const frames: string[] = [];
    for (const frame of stack.split('\n')) {
      const mapped = frameOf(frame);
      // Below the journal's frames: durasim's own machinery and Node's, which say nothing to its author.
      if (mapped === 'machinery') break;
      frames.push(mapped);
    }
    return frames.join('\n');
  };
  // What the journal writes (a logged error's stack) names its files as it sees them (/journal/…), on every machine and in every folder alike.
  const outputText = (text: string): string => {
    if (!text.includes('    at ')) return text;
    const lines: string[] = [];
    for (const line of text.split('\n')) {
      if (!/^\s+at /.test(line)) lines.push(line);
      else {
        const mapped = frameOf(line, (source) => journalPath(bundle.ref.file, source));
        if (mapped !== 'machinery') lines.push(mapped);
      }
    }
    return lines.join('\n');
  };
  return { fresh, journalStack, outputText };
}
