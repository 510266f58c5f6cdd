#!/usr/bin/env node
// Builds properties/attacks/probes.json from the probes' header comments (node properties/attacks/manifest.mjs), or checks that it
// matches them (--check; properties/attacks/run.mjs does it before it runs anything). Each probe opens with:
//   // Tries: what it tries (continued on "//   " lines)
//   // Expected: refused | served | finding | harmless | caught-by-rerun — why, from the docs
//   // API: words a refusal should name, '|'-separated (refused probes)
//   // Limit: the README's known limit it falls under, if any
//   // Oracle: what proves a real value reached the journal, if the probe looks for one
//   // Revised: <answer> — why (added after a run showed the first expectation wrong; the Expected line stays
//   //   as it was written, and run.mjs tallies the probes against both)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CLASSES = {
  disk: 'touching the real disk outside the simulated one',
  network: 'the network',
  time: 'real time and real randomness',
  'outside-call': 'code that runs when no call of the journal is running',
  verdict: 'bending the verdict',
  'crash-state': 'state that should die with a crash',
  machine: 'the real machine leaking',
  durasim: 'killing or confusing durasim itself',
};
export const ANSWERS = ['refused', 'served', 'finding', 'harmless', 'caught-by-rerun', 'unloadable'];

export function header(text, file) {
  const fields = {};
  let last;
  for (const line of text.split('\n')) {
    if (!line.startsWith('//')) break;
    const field = /^\/\/ (Tries|Expected|API|Limit|Oracle|Revised): (.*)$/.exec(line);
    if (field) fields[(last = field[1].toLowerCase())] = field[2].trim();
    else if (last && /^\/\/\s{3}/.test(line)) fields[last] += ` ${line.slice(2).trim()}`;
  }
  const expected = /^([a-z-]+) — (.+)$/.exec(fields.expected ?? '');
  if (!fields.tries || !expected || !ANSWERS.includes(expected[1])) throw new Error(`${file}: its header needs "// Tries: …" and "// Expected: <${ANSWERS.join('|')}> — why"`);
  const revised = fields.revised === undefined ? undefined : /^([a-z-]+) — (.+)$/.exec(fields.revised);
  if (fields.revised !== undefined && (!revised || !ANSWERS.includes(revised[1]) || revised[1] === expected[1])) throw new Error(`${file}: "// Revised: <${ANSWERS.join('|')}> — why" names another answer than Expected`);
  return {
    tries: fields.tries,
    expected: revised ? revised[1] : expected[1],
    why: revised ? revised[2] : expected[2],
    ...(revised ? { firstExpected: expected[1], firstWhy: expected[2] } : {}),
    ...(fields.api ? { api: fields.api.split('|') } : {}),
    ...(fields.limit ? { limit: fields.limit } : {}),
    ...(fields.oracle ? { oracle: fields.oracle } : {}),
  };
}

export function buildManifest() {
  const probes = [];
  for (const cls of Object.keys(CLASSES)) {
    for (const name of readdirSync(join(here, 'probes', cls)).filter((f) => f.endsWith('.mjs')).sort()) {
      const file = `probes/${cls}/${name}`;
      probes.push({ id: `${cls}/${name.slice(0, -4)}`, class: cls, file, ...header(readFileSync(join(here, file), 'utf8'), file) });
    }
  }
  return { classes: CLASSES, probes };
}

export const manifestText = () => `${JSON.stringify(buildManifest(), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(here, 'probes.json');
  if (process.argv.includes('--check')) {
    const same = readFileSync(path, 'utf8') === manifestText();
    console.log(same ? 'properties/attacks/probes.json matches the probes' : 'properties/attacks/probes.json differs from the probes: run node properties/attacks/manifest.mjs');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(path, manifestText());
  const { probes } = buildManifest();
  console.log(`properties/attacks/probes.json: ${probes.length} probes`);
}
