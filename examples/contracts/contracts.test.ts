/**
 * The presets proven (issue 54, item 2): for each of ietf, payments and client-token, a worker written
 * to it is clean under `durasim check` with its durasim.config.json, and each of its three broken
 * copies — the mismatch answer ignored, the in-progress answer ignored, the key's expiry ignored — is
 * found, by the invariant its header says. Small budgets at fixed seeds; the 2,000-run measurement
 * is examples/contracts/measure.ts's.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';

const HERE = import.meta.dirname;
const dir = mkdtempSync(join(tmpdir(), 'durasim-contracts-'));

async function check(preset: string, journal: string, runs: number, seed: number): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const at = join(dir, `${preset}-${journal}-${seed}`);
  const code = await main(['check', '--no-sweep', '--config', join(HERE, preset, 'durasim.config.json'), '--journal', join(HERE, preset, journal), '--runs', String(runs), '--seed', String(seed), '--workers', '1', '--no-progress', '--report-dir', join(at, 'report'), '--regressions', join(at, 'regressions')], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

/** The lines of a broken copy that journal.ts does not have, and the other way round (its header aside). */
function difference(preset: string, copy: string): { onlyCopy: string[]; onlyClean: string[] } {
  const lines = (name: string): string[] => readFileSync(join(HERE, preset, name), 'utf8').split('\n');
  const clean = lines('journal.ts');
  const broken = lines(copy);
  const header = broken.findIndex((line) => line === ' *') + 1;
  return { onlyCopy: broken.slice(header).filter((line) => !clean.includes(line)), onlyClean: clean.filter((line) => !broken.includes(line)) };
}

describe.each(['payments', 'ietf', 'client-token'])('the %s preset', (preset) => {
  // Every single fault at every step: the payments and ietf workers recorded blocked straight after outcome_unknown once their rounds ran out (no-state-skip).
  // One worker: explore's verdict does not depend on the count, and a second costs a boot and a warm-up (its 710 runs take ~4 s of CPU).
  // Without the real restarts: the clean check below restarts the same worker on the same task.
  test('its worker is clean under explore (depth 1: every crash state and fault of every family at every step)', async () => {
    const out: string[] = [];
    const at = join(dir, `${preset}-explore`);
    const code = await main(['explore', '--config', join(HERE, preset, 'durasim.config.json'), '--journal', join(HERE, preset, 'journal.ts'), '--workers', '1', '--no-progress', '--report-dir', join(at, 'report'), '--regressions', join(at, 'regressions'), '--no-real-restart'], (line) => out.push(line));
    expect(out.join('\n'), out.join('\n')).toMatch(/^verdict: clean — no crash state or fault broke an invariant/m);
    expect(code).toBe(0);
  });

  test('its worker is clean (150 runs, every default fault family)', async () => {
    const { code, out } = await check(preset, 'journal.ts', 150, 1);
    expect(out).toContain(`(its contract, from the ${preset} preset)`);
    expect(out).not.toContain('sandbox');
    // Its real restarts agree with the simulated ones: a fetch step names the key its request carries outside the path in both worlds.
    expect(out, out).toMatch(/^in real processes: both clean/m);
    expect(code).toBe(0);
  });

  test.each([
    ['journal-ignores-mismatch.ts', /truthful-outcome \[[\w-]+\] at #\d+: expected the service to hold/],
    ['journal-ignores-in-progress.ts', /truthful-outcome \[[\w-]+\] at #\d+: expected the service to hold/],
    ['journal-ignores-key-expiry.ts', /no-blind-retry \[[\w-]+\] at #\d+: expected no send again of a non-retry-safe write once the service may have forgotten its key/],
  ])('%s differs by its defect alone and is found (200 runs, seed 1), by the invariant its header names', async (copy, finding) => {
    const { onlyCopy, onlyClean } = difference(preset, copy);
    expect(onlyCopy.length).toBeLessThanOrEqual(2);
    expect(onlyClean.length).toBeLessThanOrEqual(6);
    expect(readFileSync(join(HERE, preset, copy), 'utf8')).toMatch(/^\/\*\*\n \* DEFECTIVE COPY of journal\.ts \(examples\/contracts\): it ignores/);
    const { code, out } = await check(preset, copy, 200, 1);
    expect(code).toBe(1);
    expect(out).toMatch(finding);
  });
});
