/**
 * The turn: who runs journal code right now. The scheduler hands the turn to a worker incarnation
 * when it resumes it, and takes it back at its next env call; inspect() runs under a turn of its
 * own. The guards ask the holder what a call may do: a journal holding the turn is refused real
 * I/O, real time and real randomness (the escape is recorded), and is served its simulated
 * process (pid, environment, working directory). With no holder, every call passes through: it is
 * the simulator's own machinery, or code outside any simulation.
 */

export interface Escape {
  api: string;
  /** Worker slot; -1 for inspect(). */
  pid: number;
  incarnation: number;
  message: string;
}

/** What a simulated process looks like from inside: served instead of the real process's values. */
export interface SimulatedProcess {
  /** A pid of its own, fresh for every incarnation (a restarted process gets a new pid). */
  readonly pid: number;
  readonly cwd: string;
  /** The scenario's environment; writes stay in this incarnation, as in a real process. */
  readonly env: Record<string, string>;
}

export interface TurnHolder {
  readonly simulated: SimulatedProcess;
  /** Records the escape (and the trace line) and returns it. */
  onEscape(api: string): Escape;
  /** process.exit(code) from the journal: the incarnation ends here. */
  exit(code: number): void;
}

let holder: TurnHolder | null = null;

export function setTurn(next: TurnHolder | null): void {
  holder = next;
}

export function turnHolder(): TurnHolder | null {
  return holder;
}

/** Runs simulator code that a journal calls synchronously (a disk view's read) outside the journal's turn. */
export function outsideTurn<T>(run: () => T): T {
  const saved = holder;
  holder = null;
  try {
    return run();
  } finally {
    holder = saved;
  }
}
