// The Node lines durasim runs on, checked by the command before anything else of durasim loads
// (plain JavaScript, so that it runs, and says so, on any Node).
// - 20 from 20.19, 22 from 22.12, and 24: the LTS lines durasim's suite and its trace-hash corpus
//   run on in CI (.ci/run). The minimums are the first releases of their lines that load an
//   ES-module package from require() without a flag (what `require('durasim')` needs).
// - An odd line (21, 23, 25: "Current" releases, never long-term supported, a few months of life),
//   a release older than its line's minimum, or a line older than 20: refused, exit 2 (bad usage:
//   nothing is written). A saved scenario replays the same trace on every line durasim is tested
//   on; on another, nobody has shown it.
// - An even line newer than 24: it runs, after a warning line (the next LTS lines are expected to
//   work; the trace corpus has not been replayed on them).

/** The lines durasim is tested on, each with its first supported release. */
export const SUPPORTED_LINES = [
  { line: 20, from: '20.19.0' },
  { line: 22, from: '22.12.0' },
  { line: 24, from: '24.0.0' },
];

const parts = (version) => String(version).replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
const atLeast = (version, from) => {
  const [a, b] = [parts(version), parts(from)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

/** The supported releases in words: "20.19 or later on 20, 22.12 or later on 22, and 24". */
export const SUPPORTED_WORDS = 'Node 20 (20.19 or later), 22 (22.12 or later) and 24';
const FIX = 'Run durasim with Node 24 or 22 (its LTS lines; 20.19 or later on 20 still works)';

/**
 * What durasim makes of a Node version: `supported`; `untested` (an even line newer than those it
 * is tested on: runs, with `warning`); or `refused`, with the house style's reason and fix.
 */
export function nodeSupport(version) {
  const bare = String(version).replace(/^v/, '');
  const [major] = parts(bare);
  const line = SUPPORTED_LINES.find((l) => l.line === major);
  if (line) {
    if (atLeast(bare, line.from)) return { verdict: 'supported' };
    return { verdict: 'refused', reason: `Node ${bare} is older than ${line.from}, the first release of Node ${major} durasim runs on (it supports ${SUPPORTED_WORDS})`, fix: FIX };
  }
  const newest = SUPPORTED_LINES[SUPPORTED_LINES.length - 1].line;
  if (major % 2 === 1) return { verdict: 'refused', reason: `Node ${bare} is an odd-numbered line, a short-lived release never supported long-term, and durasim is tested on the LTS lines only (${SUPPORTED_WORDS})`, fix: FIX };
  if (major < SUPPORTED_LINES[0].line) return { verdict: 'refused', reason: `Node ${bare} is older than every line durasim runs on (${SUPPORTED_WORDS})`, fix: FIX };
  if (major > newest) return { verdict: 'untested', warning: `warning: Node ${bare} is newer than the lines durasim is tested on (${SUPPORTED_WORDS}): it should work, but nobody has shown that a saved scenario replays the same trace on it` };
  return { verdict: 'refused', reason: `Node ${bare} is not a line durasim runs on (${SUPPORTED_WORDS})`, fix: FIX };
}

/**
 * The command's check, at its start: a refused Node ends the process with exit 2 and the house
 * style's message on stderr (and, for `check --json`, the JSON outcome on stdout, as every other
 * outcome of check --json has); an untested one prints its warning and goes on.
 */
export function checkNodeSupport(argv = process.argv.slice(2), version = process.versions.node) {
  const support = nodeSupport(version);
  if (support.verdict === 'untested') process.stderr.write(`${support.warning}\n`);
  if (support.verdict !== 'refused') return;
  const message = `Failed to start durasim: ${support.reason}. ${support.fix}.`;
  process.stderr.write(`${message}\n`);
  if (argv[0] === 'check' && argv.includes('--json')) process.stdout.write(`${JSON.stringify({ command: 'check', verdict: 'usage', exitCode: 2, message }, null, 2)}\n`);
  process.exit(2);
}
