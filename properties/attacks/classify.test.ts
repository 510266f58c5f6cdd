/**
 * The attack suite's own bookkeeping (properties/attacks/): how two runs of a probe are named, and
 * a probe's expectation as first written kept beside a revision.
 */
import { describe, expect, test } from 'vitest';
// @ts-expect-error: plain ESM scripts of the attack suite, without types
import { classify } from './lib/classify.mjs';
// @ts-expect-error: plain ESM scripts of the attack suite, without types
import { header } from './manifest.mjs';
// @ts-expect-error: plain ESM scripts of the attack suite, without types
import { staleBases } from './lib/bases.mjs';

const run = (code: number, output = '') => ({ code, output, summary: null });

describe('classify', () => {
  test('two exit-2 runs that say why the journal could not load are unloadable, not silent', () => {
    const said = 'Failed to load the journal: evaluating x.mjs called process.exit(5) at its top level, so it exported no journal. Fix …';
    expect(classify({ expected: 'unloadable' }, [run(2, said), run(2, said)], [])).toMatchObject({ outcome: 'unloadable', matches: true });
    expect(classify({ expected: 'finding' }, [run(2, said), run(2, said)], [])).toMatchObject({ outcome: 'unloadable', matches: false });
    // exit 2 for anything else (bad usage) is still silent, and a real effect always is.
    expect(classify({ expected: 'unloadable' }, [run(2, 'Failed to read the command line: …'), run(2, 'Failed to read the command line: …')], [])).toMatchObject({ outcome: 'silent' });
    expect(classify({ expected: 'unloadable' }, [run(2, said), run(2, said)], ['canary folder not empty: x'])).toMatchObject({ outcome: 'silent' });
  });

  test('an outcome depends on the expectation it is held to: exit 1 on a probe that expected it served is silent', () => {
    expect(classify({ expected: 'served' }, [run(1), run(1)], [])).toMatchObject({ outcome: 'silent', matches: false });
    expect(classify({ expected: 'finding' }, [run(1), run(1)], [])).toMatchObject({ outcome: 'finding', matches: true });
  });
});

describe('a revised expectation', () => {
  const probe = (revised: string) => `// Tries: something.\n// Expected: refused — why first.\n${revised}import x from 'y';\n`;
  test('replaces the expectation and keeps the first one beside it', () => {
    expect(header(probe('// Revised: served — why now,\n//   continued.\n'), 'p.mjs')).toMatchObject({ expected: 'served', why: 'why now, continued.', firstExpected: 'refused', firstWhy: 'why first.' });
    expect(header(probe(''), 'p.mjs')).not.toHaveProperty('firstExpected');
  });
  test('must name another known answer', () => {
    expect(() => header(probe('// Revised: refused — the same.\n'), 'p.mjs')).toThrow(/names another answer than Expected/);
    expect(() => header(probe('// Revised: fine — unknown.\n'), 'p.mjs')).toThrow(/names another answer than Expected/);
  });
});

describe('the base journals the probes wrap', () => {
  // A stale copy wraps a journal durasim no longer calls correct, and every probe on it reads as a finding.
  test('are examples/node-journal\'s journal.ts and journal-unsynced.ts as they are now', () => {
    expect(staleBases()).toEqual([]);
  });
});
