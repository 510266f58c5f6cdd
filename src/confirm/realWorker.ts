/**
 * One incarnation of a worker as a real process, for `durasim confirm`: started by the parent with
 * its WorkerStart, cwd the task's real folder. The sandbox is installed (as under simulation,
 * before the journal's module loads) with a holder that makes every call for real and counts the
 * ones the simulator counts, so the process's steps carry the simulation's numbers; its crashes
 * are real SIGKILLs at those steps. The journal is the bundle the worker pool evaluates, evaluated
 * here once: every process is a fresh incarnation.
 */
import { readFileSync } from 'node:fs';
import { installAmbientGuard, runAsTurn } from '../../simulator/sandbox/ambientGuard.js';
import type { JournalBundle } from '../isolation/bundleJournal.js';
import { compileJournal } from '../isolation/journalInstances.js';
import { realEnv } from '../realEnv.js';
import { CountedWorld } from './countedWorld.js';
import type { WorkerStart } from './protocol.js';
import { StepCounter } from './stepCounter.js';
import { storeClient } from './storeClient.js';

const exit = process.exit.bind(process) as (code: number) => never; // captured before the sandbox serves it
const start = JSON.parse(process.argv[2] ?? '{}') as WorkerStart;
const counter = new StepCounter(start);
const world = new CountedWorld(counter, start.dir, start.random, start.store ? storeClient(start.store.url, `worker-${start.pid}#${start.incarnation}`, start.store.timeoutMs) : undefined);
installAmbientGuard({ permanent: true });
const holder = world.holder(process.pid, (code) => {
  counter.side(code === 0 ? { type: 'exit' } : { type: 'exit', error: `process.exit(${code})` });
  return exit(code);
});

try {
  const instances = await compileJournal(JSON.parse(readFileSync(start.bundleFile, 'utf8')) as JournalBundle, start.durasimIndex);
  await runAsTurn(holder, async () => {
    const journal = instances.fresh();
    await journal.run(world.env(realEnv({ dir: start.dir, pid: start.pid, incarnation: start.incarnation })), start.task);
  });
  counter.side({ type: 'exit' });
  exit(0);
} catch (error) {
  counter.side({ type: 'exit', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  exit(1);
}
