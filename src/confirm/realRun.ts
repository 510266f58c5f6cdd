/**
 * A scenario run for real (durasim confirm): each incarnation of each worker a real process
 * (realWorker.ts) in a fresh temporary folder holding the scenario's files, the fake service's core
 * behind a real node:http server on 127.0.0.1, process kills as real SIGKILLs at the scenario's
 * steps, and the scenario's events placed between steps: a user's save (written and fsynced, with
 * its folder), a duplicate delivery (a second worker process), a service restart. What happened —
 * the steps, the service's requests and effects, the journal's records read back with its own
 * inspect() from the real folder, the files — is assembled into what the judge reads.
 *
 * Rules and limits:
 * - Only faults real processes can produce are run: process kills (keep-all), response faults (a
 *   delay or a later commit in real milliseconds), user saves, duplicate deliveries, service
 *   restarts, a changed task after a restart, pauses (a real wait between a step's grant and its
 *   call, others running meanwhile), the shared store's faults, restarts and edits, an operator's
 *   takeover (the store is the simulator's model behind a real socket, storeServer.ts, on the real
 *   clock; the operator acts on it from here) — and, with the workers traced (strace, see
 *   straceCommand.ts), machine crashes: the workers' real system calls are replayed onto the disk
 *   model (realDisk.ts), which then knows what was durable; at the crash every worker is killed,
 *   the crash image the model allows is built from those calls and written into a fresh real
 *   folder at the same path, and the recovery runs there. I/O errors cannot be run (unconfirmable()
 *   says which fault stands in the way).
 * - Traced, the durable records (at each step, at a request's arrival, at the end) are read from
 *   the model's durable image; untraced, from the real folder, which a process kill leaves whole.
 * - Between workers, steps go in the order they ask (real time), not the scenario's schedule.
 * - Bounded: a wall-clock limit for the whole run; every child is killed and the folder removed
 *   whatever happens.
 * Its parts: the real folder (realFolder.ts), the journal's inspect() on it (realInspection.ts), the service (realServiceRun.ts), the timed events
 * (realEvents.ts), the worker processes (realWorkerProcess.ts) and their side files (sideFiles.ts), the run's
 * wall-clock limit and interruption (boundRun.ts);
 * here, the scheduler that grants their steps and the evidence the judge reads.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describeLoss, gapsOf } from '../../simulator/disk/crashReport.js';
import { diskCallLines, type DiskCallLine } from '../../simulator/disk/diskCallLog.js';
import { filesOn } from '../../simulator/world/inspection.js';
import { RealDisk } from './realDisk.js';
import { straceUnavailable } from './straceCommand.js';
import { makeRunFolder, realDiskView, writeImage } from './realFolder.js';
import { realInspection } from './realInspection.js';
import { fireRealEvent } from './realEvents.js';
import { callAgain as handAgain, grant, heard, killWorker, mayRun, REAL_WORKER_BOOT, startWorkerProcess, type RealWorker } from './realWorkerProcess.js';
import { realWorkerBootFailure } from './realWorkerBootFailure.js';
import type { CrashEvidence, JudgeInput } from '../../model/evidence.js';
import { HistoryObserver } from '../../model/observedHistory.js';
import { VirtualClock } from '../../simulator/world/clock.js';
import { taskFor, taskPaths, type CrashFault, type Fault, type Scenario } from '../../simulator/scenario/scenario.js';
import { ScenarioEvents, storeCallFaults } from '../../simulator/scenario/scenarioEvents.js';
import { describeStoreCall, StoreCore, type StoreRequest } from '../../simulator/store/store.js';
import { serveStore } from './storeServer.js';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { compileJournal } from '../isolation/journalInstances.js';
import type { JournalRef } from '../isolation/journalRef.js';
import { serveScenarioService } from './realServiceRun.js';
import { AnswerQueue } from './answerQueue.js';
import { RealTrace } from './realTrace.js';
import { defaultWallLimitMs } from './realWaits.js';
import { workerSteps, type WorkerStep } from './workerSteps.js';
import { SideFiles } from './sideFiles.js';
import { endEvidence } from './realEvidence.js';
import { ownModule } from '../ownFiles.js';
import { guardModule } from '../../simulator/sandbox/ambientGuard.js';
import { nativeAddonFailure } from './nativeAddonFailure.js';
import { boundRun } from './boundRun.js';
import type { FromWorker, SideLine, WorkerStart } from './protocol.js';
import { withScenarioEnvironment } from './scenarioEnvironment.js';
import { loadedGraph } from '../pool/loadedGraph.js';

const DURASIM_INDEX = ownModule('src/index');

export interface RealRun {
  input: JudgeInput;
  /** Trace lines as they happened, for the reader. */
  lines: string[];
  /** The worker steps the real processes took, in order (workerSteps.ts). */
  steps: WorkerStep[];
  wallMs: number;
  /** Whether the workers ran under strace (then the next three say what their real calls did). */
  traced: boolean;
  /** What the real calls changed on the work folder, per worker step, as the disk model took them. */
  realCalls: DiskCallLine[];
  /** The real system calls on the work folder, a line each: "<worker step> | <call> = <result>". */
  callLog: string[];
  /** Real calls the replay cannot follow, and real calls the disk model refused (realDisk.ts). */
  unfollowed: string[];
  refused: string[];
}

/** `sqlite`: the journal keeps its records in SQLite (better-sqlite3 or node:sqlite). Throws NativeAddonUnloadable when a worker cannot load the journal's native addon. */
export async function runForReal(ref: JournalRef, scenario: Scenario, options: { wallLimitMs?: number; traced?: boolean; sqlite?: boolean } = {}): Promise<RealRun> {
  const started = performance.now();
  const wallLimitMs = options.wallLimitMs ?? defaultWallLimitMs(scenario);
  const traced = options.traced ?? straceUnavailable() === undefined;
  const { root, dir } = makeRunFolder(scenario.files);
  // The bundle the worker pool evaluates: every worker process evaluates it afresh, and so does inspect here.
  const bundle = await bundleJournal(ref);
  const bundleFile = join(root, 'bundle.json');
  writeFileSync(bundleFile, JSON.stringify(bundle));
  // inspect()'s node:sqlite DatabaseSync is served on the image it reads only once guarded in this process (realInspection.ts).
  guardModule('sqlite');
  // Its modules load, and its inspect() reads, with the scenario's environment in process.env, as simulated (a module may read its configuration as it loads).
  const instances = await compileJournal(bundle, DURASIM_INDEX);
  const loaded: JournalAdapter = withScenarioEnvironment(scenario.environment, () => instances.fresh());
  // Defined, not assigned: the adapter may be a module's exports, whose inspect is a getter.
  const journal = Object.defineProperty(Object.create(loaded) as JournalAdapter, 'inspect', { value: (disk: Parameters<JournalAdapter['inspect']>[0], store?: Parameters<JournalAdapter['inspect']>[1]) => withScenarioEnvironment(scenario.environment, () => loaded.inspect(disk, store)), enumerable: true });
  const view = realDiskView(dir);
  // A SQLite journal's WAL index (journal.db-shm) is shared memory, left out of the disk model as the simulation leaves it off the disk (realDisk.ts).
  const realDisk = traced ? new RealDisk(dir, scenario.files, options.sqlite ? (abs) => abs.endsWith('-shm') : undefined) : undefined;
  const relName = (path: string): string => posix.relative(dir, path);
  // The shared store: the simulator's model on the real clock (the workers' clocks are real too), skewed as the scenario says.
  const epochAtStart = Date.now();
  const storeCore = new StoreCore(scenario.store, storeCallFaults(scenario.faults), () => epochAtStart + (performance.now() - started));
  const { inspect, inspectDurable, durableNow, errors: inspectErrors } = realInspection(journal, view, realDisk, storeCore);

  // The trace in the simulated trace's shape (realTrace.ts): the judge reads both worlds alike.
  const realTrace = new RealTrace(started);
  const { trace, lines, record } = realTrace;
  const token = taskFor(scenario, 0).accessToken;
  const clock = new VirtualClock();
  // The service's and the store's answers, held until the simulation would deliver them.
  const answers = new AnswerQueue(() => pump());
  const service = await serveScenarioService({ scenario, clock, started, trace, record, realDisk, inspectDurable, relName, token, answers });
  const core = service.core;

  const events = new ScenarioEvents(scenario.faults);
  const observer = new HistoryObserver();
  // Traced: the durable image observed after every change the real calls made durable, as simulated (a SQLite commit is one call of the journal's).
  if (realDisk) realDisk.onDurable = () => observer.observe(durableNow(), trace.length - 1, 'durable');
  const crashes: CrashEvidence[] = [];
  const userEdits: JudgeInput['userEdits'] = [];
  const children = new Set<ChildProcess>();
  const paths = taskPaths(scenario);
  const files = (): Record<string, string | undefined> => Object.fromEntries(paths.map((p) => [p, view.readFile(p)]));
  let globalStep = 0;
  let outcome: JudgeInput['outcome'] = { kind: 'completed' };
  const sides = new SideFiles();
  /** A worker's boot could not load the journal's native addon: the run stops there (cannot confirm). */
  let unloadable: Extract<SideLine, { type: 'addon-failed' }> | undefined;
  /** A worker process ended on its own before it said hello (durasim's boot of it failed): the run stops there (exit 5). */
  let unbooted: { code: number | null; stderr: string } | undefined;

  /** Reads what a worker appended to its side file since the last look. */
  const readSide = (name: string, sideFile: string): SideLine[] => {
    const out = sides.readNew(sideFile);
    for (const line of out) {
      if (line.type === 'step') {
        globalStep++;
        events.countAccess(line.op, line.detail);
        realTrace.worker(name, line.step, line.op, line.detail, line.call);
      } else if (line.type === 'call-failed') {
        record('supervisor', 'call-failed', `${name}'s second call of run() failed: ${line.error}; the process goes on`);
      } else if (line.type === 'result') {
        if (line.op === 'fetch') for (const request of core.requests) if (request.sender === name) request.doneSeq ??= trace.length;
        if (line.note !== 'ok') realTrace.worker(name, line.step, `${line.op}:result`, line.note);
      }
    }
    observer.observe(inspectDurable(), trace.length - 1, 'durable');
    return out;
  };

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let live = 0;

  const fire = (fault: Fault): void =>
    fireRealEvent({ scenario, dir, realDisk, core, storeCore, clock, trace, userEdits, elapsedMs: () => performance.now() - started, record, deliverAgain: () => {
      record('supervisor', 'duplicate-delivery', `the task is delivered again to worker-${nextPid}`);
      spawn(nextPid++, 0);
    }, callAgain }, fault);
  /** A concurrent call: the task reaches worker `pid`'s running process again, a second call of run() in it (as simulated). */
  const callAgain = (pid: number): void => {
    const w = [...workers.values()].find((x) => x.pid === pid && !crashing?.victims.has(x));
    if (w === undefined || w.ending || !w.child.connected) {
      record('supervisor', 'concurrent-call', `the task reaches worker-${pid} again, but it is not running: nothing happens`);
      return;
    }
    record('supervisor', 'concurrent-call', `the task reaches ${w.name} again: a second call of run() in the same process, its module memory shared`);
    handAgain(w);
  };
  const fireDue = (): void => {
    for (let fault = events.nextDue(globalStep); fault; fault = events.nextDue(globalStep)) fire(fault);
  };

  /**
   * The scheduler, as the simulator's: a step is granted only when no worker runs; among the
   * workers asking, the scenario's schedule picks (by pid), a missing choice the first.
   */
  const workers = new Map<ChildProcess, RealWorker>();
  let decisions = 0;
  /** A machine crash being carried out: every other worker is being killed; then the crash image is built. */
  let crashing: { struck: string; detail: string; fault: CrashFault; victims: Set<RealWorker>; killed: string[]; restarts: { pid: number; incarnation: number }[] } | undefined;
  const pump = (): void => {
    for (const w of workers.values()) readSide(w.name, w.sideFile);
    // Grant steps until a worker runs: one that only waits on the world (a request, a sleep) lets the next go.
    for (;;) {
      if (crashing || [...workers.values()].some(mayRun)) return;
      fireDue();
      const asking = [...workers.values()].filter((w) => w.asks.length > 0).sort((a, b) => a.pid - b.pid);
      if ([...workers.values()].some(mayRun)) return;
      // Every worker blocked, none asking: the answers due first go out (as virtual time moves on, simulated).
      if (asking.length === 0) {
        answers.releaseDue();
        return;
      }
      if (globalStep >= scenario.bounds.maxSteps) {
        outcome = { kind: 'bounds-exceeded', bound: 'steps', detail: `${globalStep} steps taken, the bound is ${scenario.bounds.maxSteps}` };
        for (const w of workers.values()) killWorker(w);
        return;
      }
      const chosen = asking[asking.length > 1 ? (scenario.schedule[decisions] ?? 0) % asking.length : 0] as RealWorker;
      // A fault anchored just before this step fires first; then the scheduler looks again (as simulated).
      const next = events.anchorsPending ? chosen.asks[0] : undefined;
      const due = next && events.dueBefore(next.op, next.detail);
      if (due) {
        fire(due);
        continue;
      }
      if (asking.length > 1) decisions++;
      const asked = grant(chosen);
      events.countStep(asked.op, asked.detail);
      if (asked.op === 'fetch') service.sender = chosen.name;
    }
  };

  /** Nothing runs and nothing will: the events left over fire (one may start a worker), else the run is over. */
  const settle = (): void => {
    if (live !== 0) return;
    fireDue();
    for (let left = events.nextLeftOver(); left && live === 0; left = events.nextLeftOver()) fire(left);
    if (live === 0) finish();
  };

  const restartLater = (pid: number, incarnation: number): void => {
    if (outcome.kind !== 'completed') return;
    if (incarnation + 1 >= scenario.bounds.maxIncarnations) {
      outcome = { kind: 'bounds-exceeded', bound: 'incarnations', detail: `worker-${pid} would start incarnation ${incarnation + 1}, the bound is ${scenario.bounds.maxIncarnations}` };
      return;
    }
    live++;
    setTimeout(() => {
      live--;
      spawn(pid, incarnation + 1);
    }, Math.min(scenario.restartDelayMs, 20)).unref();
  };

  /** Every worker of a machine crash is dead and its log complete: the crash image from their real calls goes into a fresh folder. */
  const finishMachineCrash = (): void => {
    const crash = crashing;
    if (!crash || crash.victims.size > 0 || !realDisk) return;
    record('supervisor', 'crash', `${crash.detail} (${crash.fault.mode}: machine crash); killed ${crash.killed.join(', ')}`);
    realDisk.catchUp();
    const report = realDisk.disk.crash(crash.fault);
    const lost = describeLoss(report, relName);
    record('disk', 'crash', lost.length > 0 ? lost.join('; ') : 'nothing unsynced was lost');
    writeImage(dir, join(root, `crashed-${crashes.length}`), realDisk.disk.liveImage());
    observer.machineCrash();
    const records = inspectDurable();
    observer.observe(records, trace.length - 1, 'durable');
    crashes.push({ seq: trace.length - 1, timeMs: performance.now() - started, records, visible: records, survivors: [], killed: crash.killed, files: filesOn(realDisk.disk.durableView(), paths), gaps: gapsOf(report, relName) });
    crashing = undefined;
    for (const r of crash.restarts) restartLater(r.pid, r.incarnation);
    live--; // the crash itself
    settle();
    pump();
  };

  // A store call is applied when it arrives; its caller then waits on the store's answer, and the others may go (as simulated).
  const storeServer = await serveStore((request: StoreRequest, by: string) => {
    for (const w of workers.values()) readSide(w.name, w.sideFile);
    const made = storeCore.call(request, by, trace.length);
    record('store', request.op, describeStoreCall(made));
    const caller = [...workers.values()].find((w) => w.name === by);
    if (caller !== undefined && caller.storePending > 0) {
      caller.storePending--;
      caller.running = false;
      pump();
    }
    return made;
  }, (send) => answers.hold(send, scenario.store.latencyMs));

  let nextPid = 1;
  const spawn = (pid: number, incarnation: number): void => {
    const name = `worker-${pid}#${incarnation}`;
    const sideFile = join(root, 'side', `${pid}-${incarnation}.jsonl`);
    const task = taskFor(scenario, incarnation);
    // Under a contract whose url has a path (https://api.example.com/v2), the real server is asked below the same path.
    task.service.url = `${service.url}${scenario.service.contract ? new URL(scenario.service.contract.url).pathname.replace(/\/+$/, '') : ''}`;
    const start: WorkerStart = { bundleFile, durasimIndex: DURASIM_INDEX, task, pid, incarnation, dir, sideFile, faults: scenario.faults, version: scenario.version, random: scenario.random, machineCrashes: traced, store: { url: storeServer.url, timeoutMs: scenario.store.timeoutMs }, ...(scenario.service.contract ? { contract: scenario.service.contract } : {}), ...(loadedGraph() !== undefined ? { graphFile: loadedGraph() } : {}) };
    record('supervisor', 'start', name);
    const env = { ...process.env, ...scenario.environment };
    let straceLog: string | undefined;
    if (realDisk) {
      straceLog = join(root, 'side', `${pid}-${incarnation}.strace`);
      realDisk.attach(name, straceLog, sideFile);
    }
    const child = startWorkerProcess(start, dir, env, straceLog);
    children.add(child);
    live++;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    child.on('error', () => {}); // a send to a worker that just died: its exit says what happened
    const worker: RealWorker = { name, pid, incarnation, child, sideFile, asks: [], running: true, calls: 1, storePending: 0, sent: 0, ending: false };
    workers.set(child, worker);
    let booted = false;
    child.on('message', (message: FromWorker) => {
      if (message.type === 'hello') {
        booted = true;
        worker.tracee = message.pid;
        if (crashing?.victims.has(worker)) killWorker(worker);
        return;
      }
      heard(worker, message);
      if (message.type === 'pause') {
        readSide(name, sideFile);
        record('supervisor', 'pause', `${name} freezes for ${message.ms} ms`);
      } else if (message.type === 'refused') record('supervisor', 'concurrent-call', `${name} had returned its last call when the task reached it: nothing happened`);
      pump();
    });
    child.on('exit', (code, signal) => {
      children.delete(child);
      workers.delete(child);
      const side = readSide(name, sideFile);
      realDisk?.ended(name);
      unloadable ??= side.find((l): l is Extract<SideLine, { type: 'addon-failed' }> => l.type === 'addon-failed');
      // No real process can run this journal on this Node: nothing more starts, nothing is judged.
      if (unloadable !== undefined) return void (killAll(), finish());
      // Ended by itself before its hello (no journal code runs before it): its boot failed, and would in every process started again.
      // Said once all it printed is read (its stderr closes after its exit).
      if (!booted && signal === null) return void child.once('close', () => ((unbooted ??= { code, stderr }), killAll(), finish()));
      const crash = side.find((l): l is Extract<SideLine, { type: 'crash' }> => l.type === 'crash');
      const end = side.find((l): l is Extract<SideLine, { type: 'exit' }> => l.type === 'exit');
      for (const request of core.requests) if (request.sender === name) request.doneSeq ??= trace.length;
      const finished = code === 0 && !end?.error && !crash;
      live--;
      if (crashing?.victims.has(worker)) {
        // Killed by a machine crash another worker's step set off.
        crashing.victims.delete(worker);
        if (!finished) {
          crashing.killed.push(name);
          crashing.restarts.push({ pid, incarnation });
        } else record('supervisor', 'exit', `${name} finished`);
        finishMachineCrash();
        return;
      }
      if (crash && signal === 'SIGKILL' && crash.mode !== 'keep-all' && realDisk) {
        const fault = scenario.faults[crash.fault];
        if (fault?.kind === 'crash') {
          live++; // the crash itself, until its image is in place
          crashing = { struck: name, detail: `${name} ${crash.when} step ${crash.step} (${crash.op})`, fault, victims: new Set(workers.values()), killed: [name], restarts: [{ pid, incarnation }] };
          for (const victim of crashing.victims) killWorker(victim);
          finishMachineCrash();
          return;
        }
      }
      if (crash && signal === 'SIGKILL') {
        record('supervisor', 'crash', `${name} ${crash.when} step ${crash.step} (${crash.op}): SIGKILL`);
        const visible = inspect();
        const records = inspectDurable();
        crashes.push({ seq: trace.length - 1, timeMs: performance.now() - started, records, visible, survivors: [...workers.values()].map((w) => w.name), killed: [name], files: files() });
        if (realDisk) observer.observe(visible, trace.length - 1, 'visible');
      } else if (finished) record('supervisor', 'exit', `${name} finished`);
      else record('supervisor', 'exit', `${name} failed: ${end?.error ?? (signal ? `killed by ${signal}` : `exit code ${code}`)}${stderr && !end ? ` (${stderr.trim().split('\n').at(-1)})` : ''}`);
      if (!finished) restartLater(pid, incarnation);
      settle();
      pump();
    });
  };

  const killAll = (): void => {
    for (const w of workers.values()) killWorker(w);
    for (const child of children) child.kill('SIGKILL');
  };
  const unbound = boundRun(root, wallLimitMs, { killAll, cutShort: (detail) => (outcome = { kind: 'bounds-exceeded', bound: 'wall-time', detail }), finish });
  try {
    spawn(0, 0);
    await done;
  } finally {
    unbound();
    killAll();
    answers.close();
    await service.close();
    await storeServer.close();
  }
  if (unbooted !== undefined) {
    rmSync(root, { recursive: true, force: true });
    throw realWorkerBootFailure(REAL_WORKER_BOOT, unbooted.code, unbooted.stderr);
  }
  if (unloadable !== undefined) {
    rmSync(root, { recursive: true, force: true });
    throw nativeAddonFailure(unloadable.module, { message: unloadable.error });
  }
  const evidence = endEvidence({ scenario, dir, token, outcome, trace, core, requests: service.requests(), crashes, userEdits, observer, realDisk, paths, storeCore, offsetMs: epochAtStart + scenario.store.clockSkewMs, visibleAtEnd: inspect(), final: inspectDurable(), files: files() });
  // The journal's own state names, as in the simulation: its messages name its words.
  const input: JudgeInput = journal.states === undefined ? evidence : { ...evidence, states: journal.states };
  rmSync(root, { recursive: true, force: true });
  if (inspectErrors.length > 0) lines.push(`inspect() threw: ${[...new Set(inspectErrors)].join('; ')}`);
  return { input, lines, steps: workerSteps(trace), wallMs: performance.now() - started, traced, realCalls: diskCallLines(realDisk?.calls ?? []), callLog: realDisk?.log ?? [], unfollowed: realDisk?.unfollowed ?? [], refused: realDisk?.refused ?? [] };
}
