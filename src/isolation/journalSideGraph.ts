/**
 * durasim's own modules as a journal gets them (a bundle's shared modules: "durasim", or one of
 * durasim's files imported by path): a second instance of the thread's module graph, the same file
 * imported again under another URL, loaded the first time a journal asks. Never the instances the
 * thread runs: a journal that changed one of those (an exported array, a class's prototype) changed
 * how its own runs are drawn, simulated or counted — a buggy journal judged clean, durasim failing
 * as if by itself. What the copy shares with the thread is what Node shares: builtins, which the
 * restore puts back, and npm packages. Undefined where the thread runs no graph (durasim's own
 * tests): its modules are then imported by path, as before.
 */
import { pathToFileURL } from 'node:url';
import { loadedGraph } from '../pool/loadedGraph.js';

let copy: Promise<Readonly<Record<string, unknown>>> | undefined;

/** The journal side's modules by key ("src/index", "model/contract/digest"); `load` runs the import (as durasim's own work). */
export function journalSideModules(load: (importIt: () => Promise<unknown>) => Promise<unknown>): Promise<Readonly<Record<string, unknown>>> | undefined {
  const file = loadedGraph();
  if (file === undefined) return undefined;
  copy ??= load(() => import(`${pathToFileURL(file).href}?journal-side`)).then((graph) => (graph as { MODULES: Readonly<Record<string, unknown>> }).MODULES);
  return copy;
}
