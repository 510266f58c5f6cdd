import { describe, expect, test } from 'vitest';
import { colourEnabled, colourLine } from './colour.js';

describe('colour', () => {
  test.each([
    [{}, true, true],
    [{}, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ] as [NodeJS.ProcessEnv, boolean, boolean][])('%j on a TTY: %s → %s', (env, isTTY, on) => {
    expect(colourEnabled(env, isTTY)).toBe(on);
  });

  test('only the scanned-for words are coloured; the text is unchanged; JSON never is', () => {
    const strip = (s: string): string => s.replace(/\u001b\[\d+m/g, '');
    const lines = [
      '1000 runs in 4.00 s (250/s); re-run 20 for determinism: clean',
      '7 runs in 1.80 s (4/s); re-run 1 for determinism: safety',
      '  write-ahead [post-a] at #22: expected durable authorized',
      'verdict: confirmed — the same violations in real processes',
      'verdict: not reproduced (another order) — the real processes took the same steps in another order',
      'verdict: another violation — real processes broke write-ahead [post-a]',
      'cannot confirm: faults[0] is an I/O error (EIO): a real disk cannot be made to fail on cue.',
      'durasim failed: a worker thread ended unexpectedly',
      '{ "verdict": "clean" }',
      'seed 3 · faults crash · journal reference · 300 runs · 2 workers',
    ];
    expect(lines.map(colourLine)).toEqual([
      '1000 runs in 4.00 s (250/s); re-run 20 for determinism: \u001b[32mclean\u001b[39m',
      '7 runs in 1.80 s (4/s); re-run 1 for determinism: \u001b[31msafety\u001b[39m',
      '  \u001b[31mwrite-ahead\u001b[39m [post-a] at #22: expected durable authorized',
      '\u001b[32mverdict: confirmed\u001b[39m — the same violations in real processes',
      '\u001b[31mverdict: not reproduced (another order)\u001b[39m — the real processes took the same steps in another order',
      '\u001b[31mverdict: another violation\u001b[39m — real processes broke write-ahead [post-a]',
      '\u001b[33mcannot confirm\u001b[39m: faults[0] is an I/O error (EIO): a real disk cannot be made to fail on cue.',
      '\u001b[35mdurasim failed\u001b[39m: a worker thread ended unexpectedly',
      '{ "verdict": "clean" }',
      'seed 3 · faults crash · journal reference · 300 runs · 2 workers',
    ]);
    expect(lines.map(colourLine).map(strip)).toEqual(lines);
  });
});
