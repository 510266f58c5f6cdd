/**
 * The scenario's environment (check --env, the config's env, a saved scenario's) in this process's
 * process.env while `run` runs, as the simulation gives it to the journal's modules while they load
 * and to inspect(): confirm evaluates inspect()'s instance of the journal in its own process, so a
 * module that reads its configuration as it loads finds it there too. Every variable is put back as
 * it was (or removed) when `run` returns or throws.
 */
export function withScenarioEnvironment<T>(environment: Readonly<Record<string, string>> | undefined, run: () => T): T {
  if (environment === undefined || Object.keys(environment).length === 0) return run();
  const before = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(environment)) {
    before.set(name, process.env[name]);
    process.env[name] = value;
  }
  try {
    return run();
  } finally {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
