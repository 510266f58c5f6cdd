/**
 * The module graph file this thread was loaded from (src/bin/graph.mjs notes it when it loads one),
 * handed to every worker the pool boots: a worker then loads the very graph its main thread runs,
 * without digesting the sources again to name it (35–45 ms of CPU a worker, cold). Undefined where
 * durasim runs without a graph (its modules loaded one by one, as in its own tests): a worker then
 * finds its graph itself.
 */
let loaded: string | undefined;

/** Called by graph.mjs with the file it loaded this thread's modules from. */
export function noteLoadedGraph(file: string): void {
  loaded = file;
}

export function loadedGraph(): string | undefined {
  return loaded;
}
