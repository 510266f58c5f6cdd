/**
 * durasim confirm of a concurrent call: the real worker is handed a second call of run() while its
 * first is under way (the same journal instance and env), and the parent grants their steps in the
 * simulation's order — learning from the worker when every call is blocked, on a step, on the world
 * or on the other call.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { JournalAdapter, Operation } from '../../model/contract/contract.js';
import { parseScenario, type Fault } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { runForReal } from './realRun.js';
import { baseScenario } from '../arbitraries.js';
import { main } from '../cli/main.js';
import { unconfirmable } from './unconfirmable.js';
import { workerSteps } from './workerSteps.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-concurrent-'));

/** A scenario file of `operations` with `faults`; its path. */
function scenarioFile(name: string, operations: Operation[], faults: Fault[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...baseScenario(operations), faults }));
  return file;
}

async function confirm(file: string, journal: string): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['confirm', file, '--journal', journal], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

const SAME_ORDER = /^steps: the real processes took the simulation's \d+ worker steps, in its order$/m;
const twoPublishes: Operation[] = [{ kind: 'publish', key: 'post-a', body: 'a' }, { kind: 'publish', key: 'post-b', body: 'b' }];

describe('confirm of a concurrent call', () => {
  test('is something confirm runs now', () => {
    expect(unconfirmable({ ...baseScenario(twoPublishes), faults: [{ kind: 'concurrent-call', atStep: 3, process: 0 }] })).toBeUndefined();
  });

  test.concurrent('an in-memory claim made after an await: both calls send, for real as simulated (or, where real I/O ordered the calls otherwise, the same defect, the other order said)', async () => {
    // The counterexample check finds for properties/fixtures/claimsAfterAReadJournal.ts (seed 1, --faults concurrent).
    const file = scenarioFile('claims', [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }], [{ kind: 'concurrent-call', atStep: 0, process: 0 }]);
    const { code, out } = await confirm(file, join(ROOT, 'properties/fixtures/claimsAfterAReadJournal.ts'));
    expect(code, out).toBe(1);
    if (SAME_ORDER.test(out)) {
      expect(out, out).toMatch(/^verdict: confirmed — the same violations in real processes/m);
      expect(out).toMatch(/^real \(.*\): no-state-skip \[post-a\], single-flight \[post-a\]$/m);
    } else {
      // On a loaded machine the parent may grant the first call's step while the second is still in
      // its real I/O (seen in CI on Node 22, and in 3 of 8 whole-folder runs at load 11-14): the real
      // calls then take their steps in another order. The label must say so, and the defect is still
      // the one simulated (no-state-skip [post-a]), never "not reproduced" nor "both clean".
      expect(out, out).toMatch(/^steps: the real processes took the same steps in another order from worker step \d+: /m);
      expect(out).toMatch(/^verdict: confirmed — the same defect in real processes, taking their steps in another order from worker step \d+: /m);
      expect(out).toMatch(/^real \(.*\): no-state-skip \[post-a\]/m);
    }
  });

  test.concurrent.each([0, 12, 30])('the reference journal, its second call waiting in memory for the first (at step %i): both clean, step for step', async (atStep) => {
    const { code, out } = await confirm(scenarioFile(`reference-${atStep}`, twoPublishes, [{ kind: 'concurrent-call', atStep, process: 0 }]), 'reference');
    expect(out).toMatch(/^verdict: both clean$/m);
    expect(out).toMatch(SAME_ORDER);
    expect(code).toBe(0);
  });

  test.concurrent("a second call's error is recorded and the process goes on; a call that comes too late reaches nothing", async () => {
    const journal = join(dir, 'refusesSecond.ts');
    writeFileSync(journal, `import { appendFile } from 'node:fs/promises';
let calls = 0;
export default {
  name: 'refuses-a-second-call',
  async run(env) {
    if (++calls === 2) throw new Error('a request is outstanding for this key');
    await env.clock.sleep(10);
    await appendFile('done.log', 'first\\n');
  },
  inspect: () => ({}),
};
`);
    const early = parseScenario({ ...baseScenario(twoPublishes), faults: [{ kind: 'concurrent-call', atStep: 1, process: 0 }] });
    const real = await runForReal(journalRefOf(journal), early);
    const said = real.input.trace.filter((line) => line.actor === 'supervisor').map((line) => `${line.op}: ${line.detail}`);
    expect(said).toContain('concurrent-call: the task reaches worker-0#0 again: a second call of run() in the same process, its module memory shared');
    expect(said).toContain("call-failed: worker-0#0's second call of run() failed: Error: a request is outstanding for this key; the process goes on");
    expect(said.filter((line) => line.startsWith('start'))).toHaveLength(1);
    expect(said.at(-1)).toBe('exit: worker-0#0 finished');
    const simulated = await simulate((await import(journal) as { default: JournalAdapter }).default, early, { diskCalls: true });
    // The real trace in the simulated one's shape (realTrace.ts): worker-0, its incarnation, the step number, the op; the second call's steps say so.
    const shape = (line: { actor: string; incarnation?: number; step?: number; op: string }): string => `${line.actor}#${line.incarnation} ${line.step} ${line.op}`;
    expect(real.input.trace.filter((line) => line.actor.startsWith('worker-')).map(shape)).toEqual(simulated.trace.filter((line) => line.actor.startsWith('worker-') && line.step !== undefined).map(shape));
    expect(real.steps.map((s) => s.call)).toEqual(workerSteps(simulated.trace, simulated.stepCalls).map((s) => s.call));
    const late = await runForReal(journalRefOf(journal), parseScenario({ ...baseScenario(twoPublishes), faults: [{ kind: 'concurrent-call', atStep: 500, process: 0 }] }));
    expect(late.input.trace.filter((line) => line.op === 'concurrent-call').map((line) => line.detail)).toEqual(['the task reaches worker-0 again, but it is not running: nothing happens']);
  });
});
