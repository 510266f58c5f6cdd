/**
 * The journal's environment (the config's "env", check's --env) held to the scenario format's
 * limits when it is given: every scenario of the run, and every one saved, carries it, and a scenario
 * past a limit is refused when it is read — so one given past them would come back as durasim's own
 * failure (exit 5) in the middle of the run, instead of bad input (exit 2) naming where it was given.
 */
import { SCENARIO_LIMITS } from '../../simulator/scenario/scenarioLimits.js';

export interface EnvironmentProblem {
  /** The variable at fault, if it is one. */
  name?: string;
  reason: string;
  fix: string;
}

const FIX = 'Every scenario of the run carries the environment: keep it to what the journal reads';

/** A name as a message quotes it: cut to 60 characters, with its length, when longer. */
export function shownName(name: string): string {
  return name.length <= 60 ? name : `${name.slice(0, 40)}… (${name.length} characters)`;
}

/** The first of the environment's variables, or of the whole, past a limit of the scenario format; undefined when none is. */
export function environmentProblem(env: Readonly<Record<string, string>>): EnvironmentProblem | undefined {
  const entries = Object.entries(env);
  if (entries.length > SCENARIO_LIMITS.entries) return { reason: `${entries.length} variables, over the limit of ${SCENARIO_LIMITS.entries}`, fix: FIX };
  for (const [name, value] of entries) {
    if (name.length > SCENARIO_LIMITS.nameChars) return { name, reason: `a name ${name.length} characters long, over the limit of ${SCENARIO_LIMITS.nameChars}`, fix: 'Use a shorter name' };
    if (value.length > SCENARIO_LIMITS.textChars) return { name, reason: `a value ${value.length} characters long, over the limit of ${SCENARIO_LIMITS.textChars}`, fix: 'Pass a shorter value (a path to a file holding it, say)' };
  }
  const chars = JSON.stringify(env).length;
  if (chars > SCENARIO_LIMITS.fileChars) return { reason: `${chars} characters of names and values, over the limit of a whole scenario file (${SCENARIO_LIMITS.fileChars})`, fix: FIX };
  return undefined;
}
