/**
 * simulate() called in a thread that is not given to journals (a test runner's, an application's)
 * leaves what its host does to the shared objects alone (the globals a journal adds are still
 * taken away at each incarnation's start, as before): only a pool worker or confirm's real
 * process puts `globalThis`, `process` and the builtins back at each incarnation's start (they are
 * the journal's alone there). A host's property on process or its process listener added between two runs survives
 * the second; before, the first run's baseline was taken in the host's thread and the second run
 * deleted them (a test process's listeners among them: confirm beside such a run hung).
 */
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { baseScenario } from '../arbitraries.js';
import { simulate } from '../../simulator/simulate.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { bundleJournal } from './bundleJournal.js';
import { compileJournal } from './journalInstances.js';
import { journalRefOf } from './journalRef.js';

const ROOT = resolve(import.meta.dirname, '../..');

test("a host's property on process and its process listener added between two simulate() runs in its thread survive the second", async () => {
  const journal = join(ROOT, 'properties/fixtures/confirm/machineCalls.ts');
  const instances = await compileJournal(await bundleJournal(journalRefOf(journal)), join(ROOT, 'src/index.ts'));
  const scenario = parseScenario({ ...baseScenario([]), faults: [{ kind: 'crash', process: 0, incarnation: 0, step: 2, when: 'after', mode: 'keep-all' }] });
  await simulate(instances.fresh(), scenario, { fresh: instances.fresh });
  const host = process as { hostMark?: number };
  host.hostMark = 1;
  const listener = (): void => {};
  process.on('hostEvent' as 'exit', listener);
  try {
    const second = await simulate(instances.fresh(), scenario, { fresh: instances.fresh });
    expect(second.trace.filter((line) => line.actor === 'supervisor' && line.op === 'start').length).toBeGreaterThan(1);
    expect(host.hostMark).toBe(1);
    expect(process.listeners('hostEvent' as 'exit')).toContain(listener);
  } finally {
    delete host.hostMark;
    process.off('hostEvent' as 'exit', listener);
  }
});
