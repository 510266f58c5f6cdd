/** Declarations of nodeSupport.mjs (plain JavaScript: it runs before anything of durasim's can load). */
export declare const SUPPORTED_LINES: readonly { line: number; from: string }[];
export declare const SUPPORTED_WORDS: string;
export type NodeSupport = { verdict: 'supported' } | { verdict: 'untested'; warning: string } | { verdict: 'refused'; reason: string; fix: string };
export declare function nodeSupport(version: string): NodeSupport;
export declare function checkNodeSupport(argv?: readonly string[], version?: string): void;
