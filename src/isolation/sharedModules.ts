/**
 * durasim's own modules as a thread's module graph holds them (src/bin/graph.mjs registers them
 * when it loads), by path from the code root without extension ("model/contract/digest"): the very
 * instances the thread runs. A journal's bundle gets its shared modules from a second instance of
 * the graph instead (journalSideGraph.ts), a served addon's stand-in excepted.
 */
let registry: Readonly<Record<string, unknown>> | undefined;

export function registerOwnModules(modules: Readonly<Record<string, unknown>>): void {
  registry = modules;
}

/** The module at `key` in this thread's graph, or undefined (no graph, or not one of its modules). */
export function ownModuleOfGraph(key: string): unknown {
  return registry?.[key];
}
