/**
 * The module graph (graph.mjs): one file holding durasim's own modules, each with its real
 * import.meta, registered for journals' shared imports, without msw; rebuilt when a source changes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CODE_ROOT, graphFile, graphModules, graphNameOf, journalSideFileOf, loadGraph, pruneGraphs, STALE_GRAPH_AGE_MS, withRealMeta } from './graph.mjs';

describe('the module graph', () => {
  test('holds every module it lists, each with its own import.meta, and registers them', async () => {
    const graph = await loadGraph();
    expect(graph).toBeDefined();
    const modules = graphModules();
    expect(modules.length).toBeGreaterThan(100);
    expect(Object.keys(graph?.MODULES ?? {}).sort()).toEqual(modules.map((path) => path.replace(/\.ts$/, '')).sort());
    const own = graph?.MODULES['src/ownFiles'] as { CODE_ROOT: string; FROM_SOURCE: boolean };
    expect(own.CODE_ROOT).toBe(CODE_ROOT);
    expect(own.FROM_SOURCE).toBe(true);
    expect(typeof (graph?.MODULES['src/cli/main'] as { main?: unknown }).main).toBe('function');
    expect(typeof (graph?.MODULES['src/pool/poolWorker'] as { startPoolWorker?: unknown }).startPoolWorker).toBe('function');
    const shared = graph?.MODULES['src/isolation/sharedModules'] as { ownModuleOfGraph: (key: string) => unknown };
    expect(shared.ownModuleOfGraph('model/contract/digest')).toBe(graph?.MODULES['model/contract/digest']);
  });

  test('leaves out the journals, the scripts that run as they load, and msw (the internal entry and its handlers); holds the public entry', async () => {
    const modules = graphModules();
    for (const left of ['src/journals/reference.ts', 'src/bench/main.ts', 'src/internals.ts', 'simulator/service/serviceHandlers.ts']) expect(modules).not.toContain(left);
    expect(modules).toContain('src/index.ts'); // a journal's "durasim" (from the graph's second instance: journalSideGraph.ts)
    // A confirmation's real worker runs from the graph (its entry, realWorkerBoot.mjs, is the script).
    expect(modules).toContain('src/confirm/realWorker.ts');
    const text = readFileSync((await graphFile()) as string, 'utf8');
    expect(text).not.toMatch(/^import [^;]*from "msw"/m);
    expect(text).toMatch(/import\("msw"\)/); // the msw transport still loads it when a run needs it
  });

  test("a journal's shared modules come from a second instance of it, with its own npm packages: never the objects the thread runs, and \"durasim\" among them", async () => {
    const graph = await loadGraph();
    const side = graph?.MODULES['src/isolation/journalSideGraph'] as { journalSideModules: (load: (importIt: () => Promise<unknown>) => Promise<unknown>) => Promise<Record<string, Record<string, unknown>>> | undefined };
    const copy = await side.journalSideModules((importIt) => importIt());
    expect(copy).toBeDefined();
    const own = graph?.MODULES['src/standardWorkload'] as { STANDARD_OPERATIONS: unknown[] };
    const theirs = copy?.['src/standardWorkload'] as { STANDARD_OPERATIONS: unknown[] };
    expect(theirs.STANDARD_OPERATIONS).toEqual(own.STANDARD_OPERATIONS);
    expect(theirs.STANDARD_OPERATIONS).not.toBe(own.STANDARD_OPERATIONS);
    const ownDisk = graph?.MODULES['simulator/disk/diskState'] as { DiskState: { prototype: object } };
    expect((copy?.['simulator/disk/diskState'] as { DiskState: { prototype: object } }).DiskState.prototype).not.toBe(ownDisk.DiskState.prototype);
    expect(typeof (copy?.['src/index'] as { digestOf?: unknown }).digestOf).toBe('function');
    // With npm packages of its own (the journal side's graph bundles those the graph imports as it loads): fast-check's classes
    // under scenarioArbitrary() are not the ones the thread draws its runs with.
    type Arbitraries = { scenarioArbitrary: () => object };
    const chain = (value: object): object[] => {
      const out: object[] = [];
      for (let proto = Object.getPrototypeOf(value) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) out.push(proto);
      return out;
    };
    const ownChain = chain((graph?.MODULES['src/arbitraries'] as Arbitraries).scenarioArbitrary());
    const theirChain = chain((copy?.['src/arbitraries'] as Arbitraries).scenarioArbitrary());
    expect(theirChain.map((proto) => (proto as { constructor: { name: string } }).constructor.name)).toEqual(ownChain.map((proto) => (proto as { constructor: { name: string } }).constructor.name));
    expect(theirChain.filter((proto) => ownChain.includes(proto))).toEqual([]);
    const sideText = readFileSync(journalSideFileOf((await graphFile()) as string), 'utf8');
    expect(sideText).not.toMatch(/^import [^;]*from "(fast-check|pure-rand)[^"]*"/m);
    expect(sideText).not.toContain(CODE_ROOT);
    // The packages durasim's machinery loads only when a run needs them are refused there, by name: a module already loaded is
    // handed over even inside a journal's turn (a journal that built a disk of the copy's got the world's memfs).
    const refusal = (name: string): string => `Failed to load ${name}: durasim's modules a journal imports do not load it (durasim's own machinery uses it, in a thread of its own). Import the package in your journal itself, or use durasim's API outside the journal`;
    expect(() => (copy?.['simulator/disk/diskState'] as { loadMemfs: () => void }).loadMemfs()).toThrow(refusal('memfs'));
    await expect((copy?.['simulator/service/network'] as { loadMsw: () => Promise<void> }).loadMsw()).rejects.toThrow(refusal('msw'));
    expect(sideText).not.toMatch(/createRequire\d*\(__durasimMetaUrl\d*\)\("(memfs|esbuild)"\)|import\("(msw|tsx)/);
    // Loaded once a thread: the next journal gets the same copy.
    expect(await side.journalSideModules((importIt) => importIt())).toBe(copy);
  });

  test('loading it leaves memfs and Node\'s fetch unloaded: the main thread never builds a disk or answers a request (about 60 ms of every check)', async () => {
    const file = (await graphFile()) as string;
    // What a fresh process has loaded after the graph, and after `then` (the probe's own control).
    const probe = (then: string): { memfs: number; undici: number } => {
      const code = `await import(${JSON.stringify(pathToFileURL(file).href)});
${then}
const { createRequire } = await import('node:module');
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ memfs: loaded.filter((f) => f.includes('/memfs/')).length, undici: process.moduleLoadList.filter((m) => m.includes('undici')).length }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: CODE_ROOT, encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').at(-1) as string) as { memfs: number; undici: number };
    };
    expect(probe('')).toEqual({ memfs: 0, undici: 0 });
    // The probe sees them once something does load them (as the first disk built and the first answer do).
    const loaded = probe(`await import('memfs'); void new Response('');`);
    expect(loaded.memfs).toBeGreaterThan(0);
    expect(loaded.undici).toBeGreaterThan(0);
  });

  test("compiles through Node's module compile cache where Node has one (22, 24): the command's thread and each worker's read what an earlier check kept", () => {
    const root = mkdtempSync(join(tmpdir(), 'durasim-compile-cache-'));
    const graphLines = (i: number): string[] => {
      // No NODE_COMPILE_CACHE (it would enable the cache by itself): the default folder, under a temp folder of the test's own.
      const { NODE_COMPILE_CACHE: _inherited, ...env } = process.env;
      mkdirSync(join(root, 'tmp'), { recursive: true });
      const run = spawnSync(process.execPath, [join(CODE_ROOT, 'bin/durasim.mjs'), 'check', '--no-sweep', '--no-real-restart', '--runs', '2', '--workers', '1', '--seed', '1', '--report-dir', join(root, `report-${i}`), '--regressions', join(root, `regressions-${i}`), '--no-progress'], { cwd: root, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL', env: { ...env, TMPDIR: join(root, 'tmp'), NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } });
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      return run.stderr.split('\n').filter((line) => line.startsWith('[compile cache]') && /\/graph-[0-9a-f]+(\.journal-side)?\.mjs/.test(line));
    };
    const [first, second] = [graphLines(1), graphLines(2)];
    if (typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache !== 'function') {
      expect([...first, ...second]).toEqual([]); // Node 20: no compile cache, nothing changes
      return;
    }
    // The command's thread, its worker's, and the journal side its worker loads for the reference journal's shared modules (journalSideGraph.ts);
    // without the real restarts, whose processes and inspect() instance load the graph too.
    expect(first.filter((line) => / was not initialized, initializing/.test(line))).toHaveLength(3);
    expect(second.filter((line) => / was accepted/.test(line))).toHaveLength(3);
  });

  test('is named after its sources: one more byte in any of them names another graph; a test file does not', async () => {
    const file = (await graphFile()) as string;
    expect(file.endsWith(graphNameOf(CODE_ROOT))).toBe(true);
    expect(file.startsWith(join(CODE_ROOT, 'node_modules', '.cache', 'durasim'))).toBe(true);
    const root = mkdtempSync(join(tmpdir(), 'durasim-graph-name-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const first = graphNameOf(root);
    expect(graphNameOf(root)).toBe(first);
    writeFileSync(join(root, 'src', 'a.test.ts'), 'it counts for nothing');
    expect(graphNameOf(root)).toBe(first);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 12;\n');
    expect(graphNameOf(root)).not.toBe(first);
  });

  test('holds no absolute path of the tree that built it: where it runs from says where its modules are', async () => {
    const text = readFileSync((await graphFile()) as string, 'utf8');
    expect(text).not.toContain(CODE_ROOT);
    expect(text).toContain('new URL("../../../src/ownFiles.ts", import.meta.url)');
    // Two trees of the same sources, anywhere, name the same graph; a graph folder placed otherwise from the sources, another.
    const tree = (name: string): string => {
      const root = join(mkdtempSync(join(tmpdir(), 'durasim-graph-tree-')), name);
      mkdirSync(join(root, 'src'), { recursive: true });
      writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
      return root;
    };
    const one = tree('one');
    const other = tree('elsewhere');
    expect(graphNameOf(other)).toBe(graphNameOf(one));
    expect(graphNameOf(one, join(one, 'cache'))).not.toBe(graphNameOf(one));
  });

  test('a new graph removes those built for older sources, once nothing can still be booting from them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-graph-prune-'));
    const nowMs = Date.parse('2026-12-03T12:00:00Z');
    const at = (name: string, ageMs: number): void => {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), (nowMs - ageMs) / 1000, (nowMs - ageMs) / 1000);
    };
    at('graph-aaaa.mjs', STALE_GRAPH_AGE_MS + 1000); // older sources, long ago: removed
    at('graph-bbbb.mjs', 1000); // older sources, a minute ago: a check may be booting from it
    at('graph-aaaa.journal-side.mjs', STALE_GRAPH_AGE_MS + 1000); // its journal side: removed with it
    at('graph-cccc.mjs', 10 * STALE_GRAPH_AGE_MS); // the one just found or built: kept whatever its age
    at('graph-cccc.journal-side.mjs', 10 * STALE_GRAPH_AGE_MS); // and its journal side
    at('typecheck.tsbuildinfo', 10 * STALE_GRAPH_AGE_MS); // not a graph
    pruneGraphs(dir, 'graph-cccc.mjs', STALE_GRAPH_AGE_MS, nowMs);
    expect(readdirSync(dir).sort()).toEqual(['graph-bbbb.mjs', 'graph-cccc.journal-side.mjs', 'graph-cccc.mjs', 'typecheck.tsbuildinfo']);
    pruneGraphs(join(dir, 'missing'), 'graph-cccc.mjs', STALE_GRAPH_AGE_MS, nowMs); // no folder: nothing to do, no throw
  });

  test('a worker loads the graph its main thread loaded, handed it by the pool; a handed file that is gone is ignored', async () => {
    const real = (await graphFile()) as string;
    const graphUrl = pathToFileURL(join(CODE_ROOT, 'src', 'bin', 'graph.mjs')).href;
    // A worker that boots another graph waits for the pool's messages: the timeout (a hang guard no busy machine reaches) turns that into a failure, never a hang.
    const run = (code: string): string => execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: CODE_ROOT, encoding: 'utf8', timeout: 120_000 }).trim().split('\n').at(-1) as string;
    // What the pool hands its workers is the file this thread's graph came from.
    expect(run(`const g = await import(${JSON.stringify(graphUrl)}); const graph = await g.loadGraph(); console.log(graph.MODULES['src/pool/loadedGraph'].loadedGraph());`)).toBe(real);
    // A worker booted with a graph file handed to it loads that file, not the one its digest of the sources names.
    const dir = mkdtempSync(join(tmpdir(), 'durasim-graph-handed-'));
    const fake = join(dir, 'graph-handed.mjs');
    writeFileSync(fake, "import { parentPort } from 'node:worker_threads';\nexport const MODULES = { 'src/pool/poolWorker': { startPoolWorker: () => parentPort.postMessage('booted from the handed graph') } };\n");
    const boot = pathToFileURL(join(CODE_ROOT, 'src', 'pool', 'poolBoot.mjs')).href;
    expect(run(`const { Worker } = await import('node:worker_threads'); const w = new Worker(new URL(${JSON.stringify(boot)}), { execArgv: [], workerData: { graphFile: ${JSON.stringify(fake)} } }); w.on('message', (m) => { console.log(m); w.terminate(); });`)).toBe('booted from the handed graph');
    // A handed file gone meanwhile is ignored: the thread finds its graph itself.
    expect(run(`const g = await import(${JSON.stringify(graphUrl)}); g.useGraphFile(${JSON.stringify(join(dir, 'gone.mjs'))}); console.log(await g.graphFile());`)).toBe(real);
    expect(run(`const g = await import(${JSON.stringify(graphUrl)}); g.useGraphFile(${JSON.stringify(fake)}); console.log(await g.graphFile());`)).toBe(fake);
  });

  test('import.meta becomes the file’s own in code, never in a string or a comment', async () => {
    const code = await withRealMeta("export const a = import.meta.url; export const b = 'import.meta.url'; export const c = `${import.meta.dirname}/x`; // import.meta.filename\n", '/a/b.ts');
    expect(code).toContain('"file:///a/b.ts"');
    expect(code).toContain('"import.meta.url"'); // the string stays (esbuild writes it in double quotes)
    expect(code).toContain('"/a"');
    expect(code).not.toMatch(/=\s*import\.meta/);
    // In the module graph: computed from where the graph is when it runs.
    const relocatable = await withRealMeta('export const a = import.meta.url; export const b = import.meta.dirname; export const c = import.meta.filename;\n', '/a/b.ts', '../../b.ts');
    const file = join(mkdtempSync(join(tmpdir(), 'durasim-graph-meta-')), 'x', 'y', 'graph.mjs');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, relocatable);
    const meta = (await import(pathToFileURL(file).href)) as { a: string; b: string; c: string };
    expect({ ...meta }).toEqual({ a: pathToFileURL(join(file, '../../../b.ts')).href, b: join(file, '../../..'), c: join(file, '../../../b.ts') });
  });
});
