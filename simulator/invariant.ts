/**
 * The simulator's own assertions: a broken one is a durasim bug, never the journal's, and stops the
 * run loudly instead of letting a wrong world judge a journal.
 */
export class SimulatorInvariantError extends Error {
  constructor(message: string) {
    super(`durasim internal invariant broken: ${message}. Please report it with the scenario file.`);
    this.name = 'SimulatorInvariantError';
  }
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new SimulatorInvariantError(message);
}
