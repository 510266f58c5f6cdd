/** The CLI's exit codes, for CI. */
export const EXIT = {
  clean: 0,
  safety: 1,
  usage: 2,
  liveness: 3,
  /** Nondeterminism, or the journal under test reached around env (real clock, network, timers). */
  sandbox: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type RunVerdict = 'clean' | 'safety' | 'liveness' | 'sandbox';

export function exitCodeOf(verdict: RunVerdict): ExitCode {
  return EXIT[verdict];
}
