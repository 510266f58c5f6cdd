/** The CLI's exit codes, for CI. */
import type { RunVerdict } from '../runner/runVerdict.js';

export const EXIT = {
  clean: 0,
  safety: 1,
  usage: 2,
  liveness: 3,
  /** Nondeterminism, or the journal under test reached around env (real clock, network, timers). */
  sandbox: 4,
  /** durasim itself failed: never a finding about the journal. */
  harness: 5,
  /** confirm: the real system calls changed the disk otherwise than the simulation did — a fidelity defect of durasim. */
  diverged: 6,
  /** check, explore: stopped by SIGINT (Ctrl-C) with the work so far reported (128 + 2, as a shell says it). */
  interrupted: 130,
  /** check, explore: stopped by SIGTERM (a CI job cancelled), the work so far reported (128 + 15). */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export function exitCodeOf(verdict: RunVerdict): ExitCode {
  return EXIT[verdict];
}
