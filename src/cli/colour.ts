/**
 * Colour on a terminal, as command-line tools agree to do it: on when standard output is a TTY
 * (and TERM is not "dumb"); NO_COLOR (any non-empty value, no-color.org) turns it off; FORCE_COLOR
 * turns it on (or off, with 0 or false) whatever the output is. Only the words a reader scans for
 * are coloured — the verdict, an invariant that broke, durasim's own failure — and a JSON document
 * never is. The text itself never changes: piped, or with colour off, every line reads the same.
 */

export function colourEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

const CODES = { good: 32, bad: 31, warn: 33, fail: 35 } as const;
const paint = (text: string, tone: keyof typeof CODES): string => `\u001b[${CODES[tone]}m${text}\u001b[39m`;

const RULES: [RegExp, keyof typeof CODES][] = [
  [/(?<=: )clean$/, 'good'],
  [/(?<=: )safety$/, 'bad'],
  [/(?<=: )(liveness|sandbox)$/, 'warn'],
  [/^verdict: (confirmed|no violation|both clean)/, 'good'],
  [/^verdict: (not reproduced(?: \(another order\))?|another violation|\d+ violation\(s\))/, 'bad'],
  [/^(cannot confirm|in real processes: (not reproduced(?: \(another order\))?|another violation))/, 'warn'],
  [/^in real processes: confirmed/, 'good'],
  [/(?<=^ {2})[a-z-]+(?= \[[^\]]*\] at #\d+:)/, 'bad'],
  [/^(durasim failed|Failed to)/, 'fail'],
];

/** The line with its scanned-for words coloured (the first rule that matches). */
export function colourLine(line: string): string {
  if (/^\s*[{["]/.test(line)) return line;
  for (const [pattern, tone] of RULES) {
    const match = pattern.exec(line);
    if (match) return `${line.slice(0, match.index)}${paint(match[0], tone)}${line.slice(match.index + match[0].length)}`;
  }
  return line;
}
