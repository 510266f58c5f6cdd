/**
 * The scenario format's limits: what a scenario may ask for. Past any of them the file is refused
 * (exit 2) before anything runs, so untrusted or mangled input cannot make a replay slow, huge or
 * unlike Linux. The JSON Schema (schema/scenario.schema.json) and docs/scenario-format.md state the
 * same numbers; properties/scenarioSchema.test.ts holds the three to each other.
 */
export const SCENARIO_LIMITS = {
  /** The whole file, in characters of its JSON text. */
  fileChars: 8 * 1024 * 1024,
  /** Arrays and objects inside each other (a scenario needs 6; every JSON file durasim reads is held to it, before it is parsed). */
  depth: 64,
  /** An identifier: an operation key, the task id, a resource's name, a store key, `mentions`, an environment name. */
  nameChars: 200,
  /** The scenario's `name`. */
  titleChars: 200,
  /** The scenario's `description`. */
  descriptionChars: 10_000,
  /** Any other text: a body, a file's content, an append, a user's save, a resource's value, a token. */
  textChars: 256 * 1024,
  /** A path, in UTF-8 bytes, as Linux counts them: a name of at most NAME_MAX, a path under PATH_MAX. */
  pathNameBytes: 255,
  pathBytes: 4095,
  /** Lists and maps. */
  operations: 256,
  faults: 1_000,
  decisions: 100_000,
  entries: 1_000,
  /** Every whole number (a count, a step, a time in ms). */
  integer: Number.MAX_SAFE_INTEGER,
  /** The run's own bounds cannot be set past these. */
  maxSteps: 1_000_000,
  maxIncarnations: 1_000,
} as const;
