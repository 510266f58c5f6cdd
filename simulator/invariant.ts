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
  if (condition) return;
  // Its stack is where durasim broke: kept even inside the disk's work, which raises the journal's errors without frames.
  const frames = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.max(frames, 20);
  try {
    throw new SimulatorInvariantError(message);
  } finally {
    Error.stackTraceLimit = frames;
  }
}
