/**
 * The journal a one-step writeFile would pass: it rewrites its state file in place with
 * fs.promises.writeFile and fsyncs the file and its folder, so a power loss keeps the last save; but
 * a process killed between writeFile's open (which truncates) and its write leaves the file empty,
 * and the next process starts over from "no state" (properties/fixtures/inPlaceStateJournal.ts).
 * At scenario format 2 durasim kills it there and catches it, `check` finds it from a seed, and the
 * kill is confirmed in real processes; at format 1 the hand-minimal scenario runs clean.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli/main.js';
import { judge } from '../model/judge.js';
import { parseScenarioText, SCENARIO_VERSION } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import inPlaceStateJournal from './fixtures/inPlaceStateJournal.js';

const ROOT = resolve(import.meta.dirname, '..');
const JOURNAL = join(ROOT, 'properties/fixtures/inPlaceStateJournal.ts');
const MINIMAL = join(ROOT, 'properties/fixtures/inPlaceStateJournal.scenario.json');

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('a state file rewritten in place with writeFile', () => {
  test('killed between the open and the write, the next process starts over: caught at format 2, invisible at format 1', async () => {
    const scenario = parseScenarioText(readFileSync(MINIMAL, 'utf8'));
    expect(scenario.version).toBe(2);
    const result = await simulate(inPlaceStateJournal, scenario);
    const kill = result.trace.findIndex((e) => e.op === 'crash');
    // The kill lands before the write of the save of succeeded: after its open truncated the file.
    expect(result.trace.slice(kill - 2, kill).map((e) => e.detail.split(' ').slice(0, 2).join(' '))).toEqual(['state.json open', 'state.json write']);
    expect(result.trace[kill - 1]?.detail).toContain('succeeded');
    expect(judge(result).map((v) => `${v.code} ${v.key} ${String(v.actual)}`)).toEqual(['no-state-skip post-a dispatched → authorized']);
    const before = await simulate(inPlaceStateJournal, { ...scenario, version: 1 });
    expect(judge(before)).toEqual([]);
  });

  // (A short write or a torn machine crash also leaves a file it cannot read: found either way, exit 1 or 3.)
  test.each([1, 2])('check finds it within 1,000 runs at seed %i', async (seed) => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-in-place-'));
    const { code, out } = await cli('check', '--no-sweep', '--journal', JOURNAL, '--runs', '1000', '--seed', String(seed), '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress');
    expect([1, 3], out).toContain(code);
    expect(JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8'))).toMatchObject({ version: SCENARIO_VERSION });
  });

  test('the kill inside writeFile is confirmed in real processes', async () => {
    const { code, out } = await cli('confirm', MINIMAL, '--journal', JOURNAL);
    expect(out).toMatch(/^real crash: worker-0#0 before step \d+ \(fs\.promises\.writeFile\): SIGKILL$/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(code).toBe(1);
  });
});
