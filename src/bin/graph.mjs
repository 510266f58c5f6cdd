// The module graph: durasim's own modules (src/, model/, simulator/) bundled into one ESM file, so
// the command and every worker thread load one file instead of some 170 modules, and the sources
// need no TypeScript loader in any thread (a worker booted through tsx cost ~2 s of CPU).
// - From the sources (a clone) it is built on first use into node_modules/.cache/durasim/, named by
//   a digest of every source file it holds, and rebuilt whenever one changes (a stale graph can
//   never run). The package ships its own, built from dist/ by `npm run build` (dist/graph.mjs).
// - Each module keeps its own import.meta.url (where it really lives), computed from where the graph
//   is when it runs: no absolute path of the tree that built it is written in it, so a node_modules
//   copied from another clone, or the package installed anywhere, runs its own tree's files. The
//   graph exports the modules by path from the code root, without extension ("src/cli/main"), for
//   the worker threads' journals to share (src/isolation/sharedModules.ts).
// - Written as durasim writes its files: a temp file, fsynced, renamed, the folder fsynced.
// - Plain JavaScript: it runs before anything else of durasim can load.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler, tuned for durasim: it inlines less (a cumulative budget of 100 bytecodes
 * a function, not 920). A check runs thousands of scenarios through a large body of code that
 * warms up slowly: compiling it took a quarter of a check's CPU on V8's helper threads, and smaller
 * compilations cost less while the code runs as fast (measured with valgrind, whose counts do not
 * depend on the machine's load: -17% instructions a scenario over the first 400, -13% past them;
 * and -11% of a 3,000-run check's CPU, alternating). The flag is the process's, for all its threads;
 * it changes how fast code runs, never what it does.
 */
export function tuneCompiler() {
  setFlagsFromString('--max-inlined-bytecode-size-cumulative=100');
  enableCompileCache?.();
}

/**
 * Node's module compile cache (Node 22.1 and later; Node 20 has none), enabled in each thread that
 * loads the module graph — the command's and every pool worker's (a worker thread does not inherit
 * it) — before the graph compiles: the graph's code as V8 compiled it is kept on disk
 * (NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off)
 * and every later thread and process reads it instead of compiling the graph again. Measured on
 * 2026-12-05, a worker thread importing the graph, alternated, six each: 23-31 ms of CPU against
 * 42-48 on Node 24, 20-26 against 35-51 on Node 22 — of a worker's ~280 ms boot. It keeps what V8
 * compiled as the module compiled, not the functions compiled lazily as runs warm up, so a
 * worker's warm-up is its own still (docs/benchmark.md).
 */
const { enableCompileCache } = createRequire(import.meta.url)('node:module');

/**
 * durasim's own failure, in the house style (src/ownFailure.ts; this file loads before any
 * TypeScript can): the command says it and exits 5 (durasim.mjs); a pool worker whose boot throws
 * it is said with it (src/pool/bootFailure.ts).
 */
export function ownFailure(action, reason, fix) {
  return Object.assign(new Error(`Failed to ${action}: ${reason}. ${fix}.`), { ownFailure: true, action, reason, fix });
}

/** src/ownFailure.ts's REINSTALL, for this file. */
const REINSTALL = 'Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran';

/** The folder that holds src/, model/ and simulator/: the repository, or dist/ in the package. */
export const CODE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** True in a clone (the TypeScript sources are here); false in the package. */
export const FROM_SOURCE = existsSync(join(CODE_ROOT, 'src', 'cli', 'main.ts'));
const EXT = FROM_SOURCE ? '.ts' : '.js';
/** The package's graph, next to its compiled code. */
export const DIST_GRAPH = join(CODE_ROOT, 'graph.mjs');

/**
 * Folders and files left out of the graph: journals (bundled with each journal), the bench, test
 * fixtures, scripts that run as they load, and internals with the msw handlers it exports (msw
 * costs ~200 ms to load in every thread; nothing in the graph imports them). The root entry is in:
 * what it exports is in the graph already, and a journal that imports "durasim" gets it from the
 * graph's second instance (src/isolation/journalSideGraph.ts; through tsx it cost ~1 s a thread).
 */
const LEFT_OUT = ['src/journals/', 'src/bench/', 'src/pool/fixtures/', 'src/bin/', 'src/runner/traceCorpusMain', 'src/internals', 'simulator/service/serviceHandlers'];

/** Every file under src/, model/ and simulator/ that `keep` keeps, by path from `root`, sorted. */
function filesUnder(root, keep) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (keep(path)) out.push(path);
    }
  };
  for (const dir of ['src', 'model', 'simulator']) if (existsSync(join(root, dir))) walk(dir);
  return out.sort();
}

/** The graph's modules: every source file of src/, model/ and simulator/ but tests, declarations and LEFT_OUT, by path from `root`. */
export function graphModules(root = CODE_ROOT, ext = EXT) {
  return filesUnder(root, (path) => path.endsWith(ext) && !path.endsWith(`.test${ext}`) && !path.endsWith(`.d${ext}`) && !LEFT_OUT.some((left) => path.startsWith(left)));
}

/**
 * The file's code (TypeScript or JavaScript) as JavaScript whose import.meta.url, .dirname and
 * .filename are the file's own values: esbuild parses it and defines them, so only code is
 * rewritten, never a string or a comment that names them.
 * - Without `fromBundle` they are the file's absolute path (a journal's bundle, made for this run).
 * - With it (the path from the folder the bundle will live in to the file, URL-style) they are
 *   computed when the code runs, from where the bundle then is: the module graph holds no absolute
 *   path of the tree that built it, so a copy of it (a node_modules restored from another clone's
 *   cache, the package installed anywhere) serves the tree it is in.
 */
export async function withRealMeta(text, path, fromBundle) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const define = fromBundle === undefined
    ? { 'import.meta.url': JSON.stringify(pathToFileURL(path).href), 'import.meta.dirname': JSON.stringify(dirname(path)), 'import.meta.filename': JSON.stringify(path) }
    : { 'import.meta.url': '__durasimMetaUrl', 'import.meta.dirname': '__durasimMetaDirname', 'import.meta.filename': '__durasimMetaFilename' };
  const loader = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' }[extname(path)] ?? 'js';
  const out = await esbuild.transform(text, { loader, define, target: 'node20', sourcefile: path });
  if (fromBundle === undefined) return out.code;
  // Left as it is by the bundler (an ESM bundle keeps import.meta): the bundle's own URL, where it is when it runs.
  return [
    "import { fileURLToPath as __durasimFileURLToPath } from 'node:url';",
    "import { dirname as __durasimDirnameOf } from 'node:path';",
    `const __durasimMetaUrl = new URL(${JSON.stringify(fromBundle)}, import.meta.url).href;`,
    'const __durasimMetaFilename = __durasimFileURLToPath(__durasimMetaUrl);',
    'const __durasimMetaDirname = __durasimDirnameOf(__durasimMetaFilename);',
    out.code,
  ].join('\n');
}

/** The real path of `path`, which need not exist yet: its nearest existing folder's real path, and the rest. */
function realPathOf(path) {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOf(parent), path.slice(parent.length + 1));
  }
}

/** A path from the folder `from` to `to`, as a relative URL (forward slashes, each name encoded). */
function relativeUrl(from, to) {
  return relative(realPathOf(from), realPathOf(to)).split(sep).map(encodeURIComponent).join('/');
}

/**
 * Bundles `modules` (paths from `root`) into one ESM text, to be written in the folder `graphDir`:
 * each module's import.meta as where it lives, computed from where the graph is when it runs (no
 * absolute path of the tree is written in it); npm packages left to Node.
 */
export async function bundleGraph(modules, root = CODE_ROOT, graphDir = CACHE_DIR) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const key = (path) => path.slice(0, -extname(path).length);
  const entry = [
    ...modules.map((path, i) => `import * as m${i} from ${JSON.stringify(join(root, path))};`),
    `import { registerOwnModules } from ${JSON.stringify(join(root, `src/isolation/sharedModules${extname(modules[0] ?? EXT)}`))};`,
    `export const MODULES = { ${modules.map((path, i) => `${JSON.stringify(key(path))}: m${i}`).join(', ')} };`,
    'registerOwnModules(MODULES);',
  ].join('\n');
  const realMeta = {
    name: 'durasim-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.(m|c)?(t|j)s$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        return { contents: await withRealMeta(text, args.path, relativeUrl(graphDir, args.path)), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  const out = await esbuild.build({
    // The comments that name each module's file say it from the root: nothing of where the tree is.
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'durasim-graph.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [realMeta],
  });
  return out.outputFiles[0].text;
}

/**
 * The npm packages durasim's modules load only for its own machinery, never for a journal: the
 * simulated disk's memfs, the msw transport's msw, the bundler (esbuild) and the TypeScript loader
 * (tsx), and SQLite's WebAssembly. In the journal side's graph each is a module that throws when it
 * loads, naming itself: were it left to Node, a journal calling into durasim's modules would be
 * handed the very instance the thread's runs use (a module already loaded is handed over, even
 * inside a journal's turn: a journal that built a disk of durasim's got memfs's classes, the world's
 * disk's own, and made durasim fail as if by itself); bundled, it would load inside the journal's
 * turn, its clock reads steps of the first run only.
 */
const JOURNAL_SIDE_REFUSED = /^(memfs|msw|tsx|esbuild|@journeyapps\/wa-sqlite)(\/.*)?$/;

/** What loading one of them in the journal side says, in durasim's words. */
function refusedOnJournalSide(name) {
  return `Failed to load ${name}: durasim's modules a journal imports do not load it (durasim's own machinery uses it, in a thread of its own). Import the package in your journal itself, or use durasim's API outside the journal`;
}

/** The journal side's graph beside the graph `file`: what a journal's shared modules come from (src/isolation/journalSideGraph.ts). */
export function journalSideFileOf(file) {
  return file.replace(/\.mjs$/, '.journal-side.mjs');
}

/**
 * The journal side's graph of the graph file `file`, as text: the graph with every npm package it loads
 * bundled in (fast-check, pure-rand), but those of durasim's machinery, refused (above). Imported under its own URL it is a second instance of every module of durasim's
 * and of those packages, so nothing a journal reaches through durasim's modules (a class of
 * fast-check's under scenarioArbitrary(), its Random) is an object the thread's own runs use. Written
 * beside the graph: each module's import.meta is computed from where the file is, as the graph's is.
 */
export async function bundleJournalSide(file) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  // memfs (diskState.ts loadMemfs) and esbuild are required when first needed, through createRequire: written as requires esbuild
  // sees, both are refused; a bundled package's requires of Node's modules go to the file's own require (the banner).
  const text = readFileSync(file, 'utf8').replace(/createRequire\d*\(__durasimMetaUrl\d*\)\("(memfs|esbuild)"\)/g, 'require("$1")');
  const refuse = {
    name: 'durasim-journal-side',
    setup(build) {
      build.onResolve({ filter: JOURNAL_SIDE_REFUSED }, (args) => ({ path: args.path, namespace: 'durasim-refused' }));
      build.onLoad({ filter: /.*/, namespace: 'durasim-refused' }, (args) => ({ contents: `throw new Error(${JSON.stringify(refusedOnJournalSide(args.path))});\n`, loader: 'js' }));
    },
  };
  const out = await esbuild.build({
    absWorkingDir: dirname(file),
    stdin: { contents: text, resolveDir: dirname(file), sourcefile: file.slice(dirname(file).length + 1), loader: 'js' },
    banner: { js: 'import { createRequire as __durasimJournalSideRequire } from "node:module"; const require = __durasimJournalSideRequire(import.meta.url);' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [refuse],
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/**
 * The journal side's graph of the graph file `file`, built when it is missing: its path, or undefined
 * when it cannot be built or written (a journal that needs it is then told so: journalSideGraph.ts).
 */
export async function ensureJournalSide(file) {
  const side = journalSideFileOf(file);
  if (existsSync(side)) return side;
  try {
    writeDurably(side, await bundleJournalSide(file));
    return side;
  } catch {
    return undefined;
  }
}

/**
 * Writes `text` to `path` durably and atomically: src/durableFile.ts's steps (temp file, fsync,
 * rename, folder fsync), again here because this file runs before any TypeScript can load.
 */
function writeDurably(path, text) {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${path.slice(dir.length + 1)}.durasim-${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * Where a clone keeps its built graphs: node_modules/.cache/durasim, and nowhere else — the graph
 * imports its packages (memfs, msw) by name, which resolve only from inside the clone's folder (a
 * graph in the temp folder finds none; one found there, built for other sources with the same
 * digest, broke every worker's boot).
 */
const CACHE_DIR = join(CODE_ROOT, 'node_modules', '.cache', 'durasim');

/**
 * The graph's file name for the sources under `root`: a digest of every source file of src/,
 * model/ and simulator/ (tests aside: a module the graph pulls in need not be one it lists, the
 * journals say), of this builder, of esbuild's version, and of the way from the graph's folder
 * `graphDir` to the sources (real paths: "../../.." in a clone, but not where node_modules is a link
 * to a folder another tree shares) — never of where the tree is, so a node_modules copied from
 * another clone of the same sources serves as it is.
 */
export function graphNameOf(root, graphDir = join(root, 'node_modules', '.cache', 'durasim')) {
  const hash = createHash('sha256');
  const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
  hash.update(`durasim graph 2\0esbuild ${esbuildVersion}\0${readFileSync(fileURLToPath(import.meta.url))}\0${relativeUrl(graphDir, root)}\0`);
  for (const path of filesUnder(root, (p) => /\.(m?ts|m?js)$/.test(p) && !/\.test\.m?ts$/.test(p))) hash.update(`${path}\0`).update(readFileSync(join(root, path))).update('\0');
  return `graph-${hash.digest('hex').slice(0, 20)}.mjs`;
}

let known;

/**
 * The graph file this thread loads: the package's, or (from the sources) the one built for the
 * sources as they are now — built here when missing. Undefined when none can be had (the sources
 * cannot be bundled, no folder can be written): the caller then loads the modules one by one.
 */
export function graphFile() {
  known ??= findOrBuild();
  return known;
}

async function findOrBuild() {
  if (!FROM_SOURCE) return existsSync(DIST_GRAPH) ? DIST_GRAPH : undefined;
  const modules = graphModules();
  const name = graphNameOf(CODE_ROOT, CACHE_DIR);
  const path = join(CACHE_DIR, name);
  if (existsSync(path)) {
    await ensureJournalSide(path);
    return path;
  }
  let text;
  try {
    text = await bundleGraph(modules, CODE_ROOT, CACHE_DIR);
  } catch {
    return undefined;
  }
  try {
    writeDurably(path, text);
  } catch {
    return undefined; // the folder cannot be written: the modules load one by one
  }
  await ensureJournalSide(path);
  pruneGraphs(CACHE_DIR, name);
  return path;
}

/** How long a graph built for older sources stays in the cache: a check started before the edit may still be booting workers from it. */
export const STALE_GRAPH_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the graphs in `dir` built for older sources, but `keep` and any written in the last
 * `ageMs` (a running check may boot workers from one): every edit of the sources builds a new one
 * (about 0.7 MB), and a clone kept them all (160 graphs, 111 MB, in ours). Best effort: a graph
 * another process removed first, or one that cannot be removed, is left to the next build.
 */
export function pruneGraphs(dir, keep, ageMs = STALE_GRAPH_AGE_MS, nowMs = Date.now()) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || name === journalSideFileOf(keep) || !/^graph-[0-9a-f]+(\.journal-side)?\.mjs$/.test(name)) continue;
    try {
      if (nowMs - statSync(join(dir, name)).mtimeMs > ageMs) rmSync(join(dir, name), { force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/** The graph's modules, loaded (one file), or undefined when there is no graph (see graphFile). */
export async function loadGraph() {
  const file = await graphFile();
  if (file === undefined) return undefined;
  /** @type {{ MODULES: Record<string, Record<string, unknown>> }} */
  let graph;
  try {
    graph = await import(pathToFileURL(file).href);
  } catch (error) {
    const said = error instanceof Error ? `${error.name}: ${error.message}`.split('\n')[0] : String(error);
    // From the sources it is built again once it is gone; the package's is its own file.
    throw ownFailure("load durasim's module graph", `${file} threw ${said.replace(/\.+$/, '')}`, FROM_SOURCE ? `Delete ${file} (it is built again from the sources on the next run); if it fails again, report it with the command line you ran` : REINSTALL);
  }
  // The pool hands this file to every worker it boots (src/pool/loadedGraph.ts).
  /** @type {{ noteLoadedGraph?: (file: string) => void } | undefined} */ (graph.MODULES['src/pool/loadedGraph'])?.noteLoadedGraph?.(file);
  return graph;
}

/**
 * Makes `file` the graph this thread loads, when it exists: a worker is handed the graph its main
 * thread loaded (workerData.graphFile) and loads the same one, without digesting the sources again.
 * A file gone meanwhile (another check pruned it) is ignored: the thread finds or builds its own.
 */
export function useGraphFile(file) {
  if (typeof file === 'string' && known === undefined && existsSync(file)) known = Promise.resolve(file);
}

/**
 * One of durasim's modules, by its path from the code root without extension ("src/cli/main"), for
 * an entry script: from the graph, else the package's compiled file, else the TypeScript source
 * through tsx (registered here). `from` is the entry's import.meta.url, `relative` the module's
 * path from it without extension ("../cli/main").
 */
export async function ownModuleForEntry(key, from, relative) {
  const graph = await loadGraph();
  if (graph !== undefined) {
    const module = graph.MODULES[key];
    if (module === undefined) throw ownFailure(`load durasim's module ${key}`, `its module graph ${await graphFile()} holds no such module`, REINSTALL);
    return module;
  }
  const compiled = new URL(`${relative}.js`, from);
  if (existsSync(compiled)) return import(compiled.href);
  // The package has no TypeScript sources to fall back on (nor tsx to load them).
  if (!FROM_SOURCE) throw ownFailure(`load durasim's module ${key}`, `neither its module graph ${DIST_GRAPH} nor its compiled file ${fileURLToPath(compiled)} is there: durasim's package is incomplete`, REINSTALL);
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(`${relative}.ts`, from).href);
}

// `node src/bin/graph.mjs --dist` (npm run build): the package's graph, from the compiled code in dist/.
// A promise chain, not a top-level await: the package's root (src/index) imports this file, and a
// module graph with a top-level await cannot be require()d from CommonJS (ERR_REQUIRE_ASYNC_MODULE).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--dist')) {
  const dist = join(CODE_ROOT, 'dist');
  const modules = graphModules(dist, '.js');
  void bundleGraph(modules, dist, dist)
    .then((text) => {
      writeDurably(join(dist, 'graph.mjs'), text);
      process.stderr.write(`wrote ${relative(process.cwd(), join(dist, 'graph.mjs'))}: ${modules.length} modules\n`);
      return bundleJournalSide(join(dist, 'graph.mjs'));
    })
    .then((text) => {
      writeDurably(journalSideFileOf(join(dist, 'graph.mjs')), text);
      process.stderr.write(`wrote ${relative(process.cwd(), journalSideFileOf(join(dist, 'graph.mjs')))}: the journal side's\n`);
    });
}
