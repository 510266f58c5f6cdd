/**
 * One incarnation of a worker as a real process, for `durasim confirm`: started by the parent with
 * its WorkerStart, cwd the task's real folder. The sandbox is installed (as under simulation,
 * before the journal's module loads) with a holder that makes every call for real and counts the
 * ones the simulator counts, so the process's steps carry the simulation's numbers; its crashes
 * are real SIGKILLs at those steps. The journal is the bundle the worker pool evaluates, evaluated
 * here once: every process is a fresh incarnation. Started by realWorkerBoot.mjs, which loads
 * durasim's module graph (no TypeScript loader in the process).
 */
import { readFileSync } from 'node:fs';
import type { Env, JournalAdapter } from '../../model/contract/contract.js';
import { installAmbientGuard, runAsCall, runAsTurn } from '../../simulator/sandbox/ambientGuard.js';
import { importsServedAddon, type JournalBundle } from '../isolation/bundleJournal.js';
import { loadRealModule } from '../../simulator/sqlite/database.js';
import { compileJournal } from '../isolation/journalInstances.js';
import { realEnv } from '../realEnv.js';
import { CountedWorld } from './countedWorld.js';
import type { WorkerStart } from './protocol.js';
import { StepCounter } from './stepCounter.js';
import { storeClient } from './storeClient.js';

/**
 * The calls of run() this process serves: the first at once; one more for each concurrent call the
 * parent hands it while a call is under way (the same journal instance and env: a server's second
 * request). Resolves when the last returned, rejects at the first call's error; the parent hears
 * of every call but the last that returns ("returned") and of the last ("ending"), and a concurrent
 * call that comes when none is under way is refused ("refused").
 */
function runCalls(call: (second: boolean) => Promise<void>, counter: StepCounter): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let underWay = 0;
    let started = 0;
    const begin = (second: boolean): void => {
      counter.callsUnderWay = ++underWay;
      // Each call of run() is code of its own call (sandbox/turn.ts runAsCall), as simulated: its steps say which.
      runAsCall(started++, () => call(second)).then(() => {
        counter.callsUnderWay = Math.max(1, --underWay); // the process's end counts as one: its beforeExit listeners run as a call does
        if (underWay > 0) counter.tell({ type: 'returned' });
        else {
          counter.tell({ type: 'ending' });
          resolve();
        }
      }, reject);
    };
    counter.onCallAgain(() => {
      if (underWay > 0) begin(true);
      else counter.tell({ type: 'refused' });
    });
    begin(false);
  });
}

/** The worker's life: runs the journal's incarnation, then exits the process (never returns). */
export async function runRealWorker(start: WorkerStart): Promise<never> {
  const exit = process.exit.bind(process) as (code: number) => never; // captured before the sandbox serves it
  const counter = new StepCounter(start);
  /** Until nothing is left of this process's own work but its channel to the parent (and stdio): its event loop's empty. */
  const settled = async (): Promise<void> => {
    const own = (): string[] => process.getActiveResourcesInfo().filter((kind) => kind !== 'PipeWrap' && kind !== 'TTYWrap' && kind !== 'Immediate');
    for (let turn = 0; turn < 100_000 && (counter.busy || own().length > 0); turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  const bundle = JSON.parse(readFileSync(start.bundleFile, 'utf8')) as JournalBundle;
  // The real, native better-sqlite3 a journal on it opens here: loaded as this process's own work,
  // before the sandbox and the journal's first step (docs/sqlite.md). When it does not load on this
  // Node (a binary built for another ABI), no real run can open the journal's database: the parent
  // is told why and stops the run (cannot confirm: nativeAddonFailure.ts), no step taken.
  if (importsServedAddon(bundle)) {
    try {
      loadRealModule();
    } catch (error) {
      counter.side({ type: 'addon-failed', module: 'better-sqlite3', error: error instanceof Error ? error.message : String(error) });
      return exit(1);
    }
  }
  const world = new CountedWorld(counter, start.dir, start.version, start.random, start.store ? storeClient(start.store.url, `worker-${start.pid}#${start.incarnation}`, start.store.timeoutMs) : undefined, { url: start.task.service.url, ...(start.contract ? { contract: start.contract } : {}) });
  installAmbientGuard({ permanent: true });
  const holder = world.holder(process.pid, (code) => {
    counter.side(code === 0 ? { type: 'exit' } : { type: 'exit', error: `process.exit(${code})` });
    return exit(code);
  });
  try {
    const instances = await compileJournal(bundle, start.durasimIndex);
    // The journal's modules are evaluated in the first call's turn, as simulated; a concurrent call runs the same instance with the same env.
    let journal: JournalAdapter | undefined;
    let env: Env | undefined;
    await runCalls(
      (second) => runAsTurn(holder, async () => {
        journal ??= instances.fresh();
        env ??= world.env(realEnv({ dir: start.dir, pid: start.pid, incarnation: start.incarnation }));
        await journal.run(env, start.task);
      }).then(
        () => undefined,
        (error: unknown) => {
          if (!second) throw error;
          // A second call that fails is that request's answer, as a server's: the process goes on (as simulated).
          counter.side({ type: 'call-failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
        },
      ),
      counter,
    );
    // run() returned: as a process whose event loop ran empty (this one's stays open for the parent's
    // messages), 'beforeExit' listeners run, and what they start runs to its end; exit() then runs the 'exit' ones.
    if (process.listenerCount('beforeExit') > 0) {
      runAsTurn(holder, () => process.emit('beforeExit', 0));
      await settled();
    }
    counter.side({ type: 'exit' });
    return exit(0);
  } catch (error) {
    counter.side({ type: 'exit', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    return exit(1);
  }
}
