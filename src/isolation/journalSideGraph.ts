/**
 * durasim's own modules as a journal gets them (a bundle's shared modules: "durasim", or one of
 * durasim's files imported by path): a second instance of the thread's module graph, loaded the
 * first time a journal asks, from the journal side's graph beside it (src/bin/graph.mjs: the graph
 * with the npm packages it imports as it loads, fast-check and pure-rand, bundled in). Never the
 * instances the thread runs: a journal that changed one of those (an exported array, a class's
 * prototype, the prototype of fast-check's Random reached under scenarioArbitrary()) changed how its
 * own runs are drawn, simulated or counted — a buggy journal judged clean, durasim failing as if by
 * itself. What the copy shares with the thread is what Node shares: builtins, which the lock and the
 * restore keep. The packages durasim's machinery loads only when a run needs them (memfs, msw, esbuild,
 * tsx, SQLite's WebAssembly) throw when the copy would load them, naming themselves: a module already
 * loaded is handed over even inside a journal's turn, so a journal that built a disk of the copy's got
 * memfs's classes, the world's disk's own. Undefined where the thread runs no graph (durasim's own tests): its
 * modules are then imported by path, as before.
 */
import { pathToFileURL } from 'node:url';
import { ensureJournalSide, journalSideFileOf } from '../bin/graph.mjs';
import { OwnFailure } from '../ownFailure.js';
import { loadedGraph } from '../pool/loadedGraph.js';

let copy: Promise<Readonly<Record<string, unknown>>> | undefined;

/** The journal side's modules by key ("src/index", "model/contract/digest"); `load` runs the import (as durasim's own work). */
export function journalSideModules(load: (importIt: () => Promise<unknown>) => Promise<unknown>): Promise<Readonly<Record<string, unknown>>> | undefined {
  const file = loadedGraph();
  if (file === undefined) return undefined;
  copy ??= load(async () => {
    const side = await ensureJournalSide(file);
    if (side === undefined) throw new OwnFailure("load durasim's modules for a journal that imports them", `the journal side of its module graph (${journalSideFileOf(file)}) is not there and cannot be built beside it`, `Delete ${file} (it is built again, with its journal side, on the next run); if it fails again, report it with the command line you ran`);
    return import(pathToFileURL(side).href);
  }).then((graph) => (graph as { MODULES: Readonly<Record<string, unknown>> }).MODULES);
  return copy;
}
