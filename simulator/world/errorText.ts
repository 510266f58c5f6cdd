/**
 * An error as the trace says it: `Name: message`. The engine words some of its own errors
 * differently from one Node line to the next (V8 12 appends "(line 1 column 2)" to JSON.parse's
 * SyntaxError), so those parts are left out: a scenario gives one trace on every Node line
 * durasim supports (principle 2; the trace-hash corpus replays on each in CI).
 */
const ENGINE_SUFFIXES: readonly RegExp[] = [/ \(line \d+ column \d+\)$/];

export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  if (error.name === 'SyntaxError') for (const suffix of ENGINE_SUFFIXES) message = message.replace(suffix, '');
  return `${error.name}: ${message}`;
}
