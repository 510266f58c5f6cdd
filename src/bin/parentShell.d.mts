/** Declarations of parentShell.mjs (plain JavaScript: it runs before anything of durasim's can load). */
export declare function parentPid(stat?: string): number | undefined;
export declare function isCommandShell(cmdline: string | undefined): boolean;
export declare function switchesOf(status: string | undefined): number | undefined;
export declare const WRAPPER_SIGNAL: string;
export declare function watchParentShell(intervalMs?: number): (() => void) | undefined;
