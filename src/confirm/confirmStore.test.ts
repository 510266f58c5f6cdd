/**
 * durasim confirm for journals on the shared store: the store is the simulator's model behind a
 * real socket (storeServer.ts), reached from the worker processes over it (storeClient.ts). The
 * coordinated journal's mutants are confirmed (a plain run, an operator's takeover, a store edit);
 * the coordinated journal itself runs clean through store timeouts, each a real wait; and a pause
 * is a real freeze between a step's grant and its call, with the other workers going meanwhile.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli/main.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { runForReal } from './realRun.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-'));
const oneWrite = { format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] } };

async function confirm(scenario: string, journal: string): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['confirm', scenario, '--journal', journal], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('durasim confirm, the shared store', () => {
  test.concurrent.each([
    ['no-fencing-token', 'reports/mutants/minimal/no-fencing-token.json', 'fenced-effects [post-a]'],
    ['ignores-takeover', 'reports/mutants/counterexamples/ignores-takeover.json', 'takeover-exclusive [task-1]'],
    ['repairs-projection', 'reports/mutants/counterexamples/repairs-projection.json', 'projection-consistent [task-1/projection]'],
  ])('%s: its counterexample is confirmed, the store served for real', async (mutant, file, violation) => {
    const { code, out } = await confirm(join(ROOT, file), mutant);
    expect(out).toMatch(new RegExp(`^real \\(\\d+ ms, \\d+ worker steps, .*\\): .*${violation.replace(/[[\]/]/g, '\\$&')}`, 'm'));
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(code).toBe(1);
  });

  test('the coordinated journal through two store timeouts (one applied, one not): clean, step for step, each timeout a real wait', async () => {
    const file = join(dir, 'store-timeouts.json');
    const scenario = { ...oneWrite, store: { timeoutMs: 300 }, faults: [{ kind: 'store-call', call: 1, fault: 'timeout-after-apply' }, { kind: 'store-call', call: 3, fault: 'timeout-before-apply' }] };
    writeFileSync(file, JSON.stringify(scenario));
    const { code, out } = await confirm(file, 'coordinated');
    expect(out).toMatch(/^steps: the real processes took the simulation's \d+ worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: both clean$/m);
    expect(code).toBe(0);
    const real = await runForReal(journalRefOf('coordinated'), parseScenario(scenario));
    const timeouts = real.input.trace.filter((line) => line.op.endsWith(':result') && line.detail === 'StoreTimeoutError');
    expect(timeouts.map((line) => `${(line as { step?: number }).step} ${line.op}`)).toEqual(['1 store.list:result', '4 store.get:result']);
    expect(real.input.store?.calls.map((c) => [c.request.op, c.applied, c.fault ?? ''])).toEqual(expect.arrayContaining([['list', false, 'timeout-after-apply'], ['get', false, 'timeout-before-apply']]));
    expect(real.wallMs).toBeGreaterThanOrEqual(600);
  });

  test('a pause freezes the worker between the grant and the call, for real, and a duplicate worker takes steps meanwhile', async () => {
    const scenario = parseScenario({ ...oneWrite, faults: [{ kind: 'duplicate-delivery', atStep: 1 }, { kind: 'pause', process: 0, incarnation: 0, step: 4, pauseMs: 400 }] });
    const real = await runForReal(journalRefOf('reference'), scenario);
    const lines = real.input.trace;
    const paused = lines.findIndex((line) => line.actor === 'supervisor' && line.op === 'pause');
    expect(lines[paused]?.detail).toBe('worker-0#0 freezes for 400 ms');
    expect(lines[paused - 1]).toMatchObject({ actor: 'worker-0', incarnation: 0, step: 4 });
    const resumed = lines.findIndex((line, i) => i > paused && line.actor === 'worker-0');
    expect(lines.slice(paused + 1, resumed).some((line) => line.actor === 'worker-1' && line.incarnation === 0 && (line as { step?: number }).step !== undefined)).toBe(true);
    expect(real.wallMs).toBeGreaterThanOrEqual(400);
  });
});
