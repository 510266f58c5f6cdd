/**
 * durasim's own modules as a thread's module graph holds them (src/bin/graph.mjs registers them
 * when it loads), by path from the code root without extension ("model/contract/digest"): the
 * modules a journal's bundle shares with durasim instead of bundling (bundleJournal.ts) come from
 * here, the very instances the thread runs. A thread without a graph imports them by path.
 */
let registry: Readonly<Record<string, unknown>> | undefined;

export function registerOwnModules(modules: Readonly<Record<string, unknown>>): void {
  registry = modules;
}

/** The module at `key` in this thread's graph, or undefined (no graph, or not one of its modules). */
export function ownModuleOfGraph(key: string): unknown {
  return registry?.[key];
}
