/** Declarations of graph.mjs (plain JavaScript: it runs before anything of durasim's can load). */
export declare const CODE_ROOT: string;
export declare const FROM_SOURCE: boolean;
export declare const DIST_GRAPH: string;
export declare function graphModules(root?: string, ext?: string): string[];
export declare function bundleGraph(modules: readonly string[], root?: string, graphDir?: string): Promise<string>;
export declare function graphFile(): Promise<string | undefined>;
export declare function useGraphFile(file: unknown): void;
export declare function loadGraph(): Promise<{ MODULES: Record<string, Record<string, unknown>> } | undefined>;
export declare function withRealMeta(text: string, path: string, fromBundle?: string): Promise<string>;
export declare function graphNameOf(root: string, graphDir?: string): string;
export declare const STALE_GRAPH_AGE_MS: number;
export declare function pruneGraphs(dir: string, keep: string, ageMs?: number, nowMs?: number): void;
export declare function tuneCompiler(): void;
export declare function ownFailure(action: string, reason: string, fix: string): Error & { ownFailure: true; action: string; reason: string; fix: string };
export declare function ownModuleForEntry(key: string, from: string, relative: string): Promise<Record<string, unknown>>;
export declare function journalSideFileOf(file: string): string;
export declare function bundleJournalSide(file: string): Promise<string>;
export declare function ensureJournalSide(file: string): Promise<string | undefined>;
