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
 *   restarts, a changed task after a restart. Machine crashes and I/O errors cannot be
 *   (unconfirmable() says which one stands in the way).
 * - A real process kill loses nothing the page cache holds: the durable image and the visible one
 *   are the same folder, and a violation that only a machine crash would show is not reproduced.
 * - Between workers, steps go in the order they ask (real time), not the scenario's schedule.
 * - Bounded: a wall-clock limit for the whole run; every child is killed and the folder removed
 *   whatever happens.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CrashEvidence, JudgeInput, Records, TraceLine } from '../../model/evidence.js';
import { HistoryObserver } from '../../model/observedHistory.js';
import { normalizeRecords } from '../../model/records.js';
import { VirtualClock } from '../../simulator/world/clock.js';
import { cancelFileOf, taskFor, taskPaths, type Fault, type ResponseFault, type Scenario } from '../../simulator/scenario/scenario.js';
import { ScenarioEvents } from '../../simulator/scenario/scenarioEvents.js';
import { describeServiceEvent, ServiceCore } from '../../simulator/service/service.js';
import type { DiskView, JournalAdapter } from '../../model/contract/contract.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { compileJournal } from '../isolation/journalInstances.js';
import type { JournalRef } from '../isolation/journalRef.js';
import { serveOverHttp } from '../realService.js';
import { maskSecrets } from '../../model/contract/secret.js';
import { secretSightingsIn } from './secretScan.js';
import { tempEvidenceIn } from './tempScan.js';
import { FROM_SOURCE, ownModule } from '../ownFiles.js';
import type { FromWorker, SideLine, WorkerStart } from './protocol.js';

const DURASIM_INDEX = ownModule('src/index');
const WORKER = ownModule('src/confirm/realWorker');
/** tsx, as the workers load it (`--import tsx` would resolve from the task's folder). */
const WORKER_EXEC_ARGV = FROM_SOURCE ? ['--import', import.meta.resolve('tsx')] : [];

/** Why real processes cannot run this scenario's faults, or undefined when they can. */
export function unconfirmable(scenario: Scenario): string | undefined {
  for (const [i, fault] of scenario.faults.entries()) {
    if (fault.kind === 'crash' && fault.mode !== 'keep-all') return `faults[${i}] is a machine crash (${fault.mode}): killing a process cannot lose what the page cache holds`;
    if (fault.kind === 'io-error') return `faults[${i}] is an I/O error (${fault.error}): a real disk cannot be made to fail on cue`;
    if (fault.kind === 'takeover') return `faults[${i}] is an operator takeover, which needs the shared store, which has no real counterpart in a confirmation yet`;
    if (fault.kind === 'pause') return `faults[${i}] is a pause (${fault.pauseMs} ms), which a real process is not frozen for on cue yet`;
    if (fault.kind === 'store-call' || fault.kind === 'store-restart' || fault.kind === 'store-edit') return `faults[${i}] is a fault of the shared store (${fault.kind}), which has no real counterpart in a confirmation yet`;
  }
  return undefined;
}

export interface RealRun {
  input: JudgeInput;
  /** Trace lines as they happened, for the reader. */
  lines: string[];
  wallMs: number;
}

function realDiskView(dir: string): DiskView {
  return {
    dir,
    readFile: (path) => {
      try {
        return readFileSync(join(dir, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    readdir: (path) => {
      try {
        return readdirSync(join(dir, path)).sort();
      } catch {
        return [];
      }
    },
  };
}

/** A user's save, as the simulated user makes it: in place, fsynced, and its folder fsynced. */
function userSave(dir: string, path: string, text: string): void {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  for (const target of [file, dirname(file)]) {
    const fd = openSync(target, 'r');
    fsyncSync(fd);
    closeSync(fd);
  }
}

export async function runForReal(ref: JournalRef, scenario: Scenario, options: { wallLimitMs?: number } = {}): Promise<RealRun> {
  const started = performance.now();
  const wallLimitMs = options.wallLimitMs ?? 60_000;
  const root = mkdtempSync(join(tmpdir(), 'durasim-confirm-'));
  const dir = join(root, 'work');
  mkdirSync(join(root, 'side'));
  for (const [path, text] of Object.entries(scenario.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  // The bundle the worker pool evaluates: every worker process evaluates it afresh, and so does inspect here.
  const bundle = await bundleJournal(ref);
  const bundleFile = join(root, 'bundle.json');
  writeFileSync(bundleFile, JSON.stringify(bundle));
  const journal: JournalAdapter = (await compileJournal(bundle, DURASIM_INDEX)).fresh();
  const view = realDiskView(dir);
  const inspectErrors: string[] = [];
  const inspect = (): Records => {
    try {
      const { records, problems } = normalizeRecords(journal.inspect(view));
      inspectErrors.push(...problems);
      return records;
    } catch (error) {
      inspectErrors.push(error instanceof Error ? error.message : String(error));
      return {};
    }
  };

  const trace: TraceLine[] = [];
  const lines: string[] = [];
  const token = taskFor(scenario, 0).accessToken;
  const record = (actor: string, op: string, raw: unknown): void => {
    const detail = maskSecrets(String(raw ?? ''));
    trace.push({ seq: trace.length, actor, op, detail });
    lines.push(`${String(trace.length - 1).padStart(4)} ${actor} ${op} ${detail}`);
  };
  const clock = new VirtualClock();
  const core = new ServiceCore({ ...scenario.service, existing: [...scenario.service.existing] }, scenario.faults.filter((f): f is ResponseFault => f.kind === 'response'), clock, (event) => {
    if (event.kind === 'commit') event.effect.seq = trace.length;
    record('service', ...(Object.values(describeServiceEvent(event, scenario.service.idempotencyMemory)) as [string, string]));
  });
  if (token !== undefined) core.requireBearer(token);
  let sender = '';
  const recordsAtArrival = new Map<number, Records>();
  const service = await serveOverHttp(core, (method, reply) => {
    const request = core.requests[core.requests.length - 1];
    if (request) {
      request.seq = trace.length;
      request.sender = sender;
      if (reply.deliver === 'respond') request.answered = true;
      if (request.route.kind !== 'query') recordsAtArrival.set(request.index, inspect());
      record('service', 'receive', `#${request.index} ${method} → ${request.status}${request.fault ? ` [${request.fault}]` : ''}`);
    }
    return 'respond';
  }, 'held');

  const events = new ScenarioEvents(scenario.faults);
  const observer = new HistoryObserver();
  const crashes: CrashEvidence[] = [];
  const userEdits: JudgeInput['userEdits'] = [];
  const children = new Set<ChildProcess>();
  const paths = taskPaths(scenario);
  const files = (): Record<string, string | undefined> => Object.fromEntries(paths.map((p) => [p, view.readFile(p)]));
  let globalStep = 0;
  let outcome: JudgeInput['outcome'] = { kind: 'completed' };
  const sideOffsets = new Map<string, number>();

  /** Reads what a worker appended to its side file since the last look. */
  const readSide = (name: string, sideFile: string): SideLine[] => {
    let text = '';
    try {
      text = readFileSync(sideFile, 'utf8');
    } catch {
      return [];
    }
    const from = sideOffsets.get(sideFile) ?? 0;
    sideOffsets.set(sideFile, text.length);
    const out = text.slice(from).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SideLine);
    for (const line of out) {
      if (line.type === 'step') {
        globalStep++;
        events.countAccess(line.op, line.detail);
        record(name, `step ${line.step} ${line.op}`, line.detail);
      } else if (line.type === 'result') {
        if (line.op === 'fetch') for (const request of core.requests) if (request.sender === name) request.doneSeq ??= trace.length;
        if (line.note !== 'ok') record(name, `step ${line.step} ${line.op}:result`, line.note);
      }
    }
    observer.observe(inspect(), trace.length - 1, 'durable');
    return out;
  };

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let live = 0;

  const fire = (fault: Fault): void => {
    if (fault.kind === 'user-edit') {
      userSave(dir, fault.path, fault.text);
      userEdits.push({ seq: trace.length, timeMs: performance.now() - started, path: fault.path, text: fault.text });
      record('user', 'edit', `${fault.path}`);
    } else if (fault.kind === 'cancel') {
      const reason = fault.reason ?? 'cancelled by the user';
      userSave(dir, cancelFileOf(scenario.task.id), `${JSON.stringify({ reason })}\n`);
      record('user', 'cancel', `${cancelFileOf(scenario.task.id)} ← the task is cancelled: ${reason}`);
    } else if (fault.kind === 'input-change') {
      core.changeResource(fault.resource, fault.value);
      record('user', 'input-change', `the service's resource ${fault.resource} ← ${JSON.stringify(fault.value)}`);
    } else if (fault.kind === 'service-restart') core.restart();
    else if (fault.kind === 'duplicate-delivery') {
      record('supervisor', 'duplicate-delivery', `the task is delivered again to worker-${nextPid}`);
      spawn(nextPid++, 0);
    }
  };
  const fireDue = (): void => {
    for (let fault = events.nextDue(globalStep); fault; fault = events.nextDue(globalStep)) fire(fault);
  };

  /**
   * The scheduler, as the simulator's: a step is granted only when no worker runs; among the
   * workers asking, the scenario's schedule picks (by pid), a missing choice the first.
   */
  interface Worker {
    name: string;
    pid: number;
    child: ChildProcess;
    sideFile: string;
    state: 'running' | 'asking' | 'waiting';
    asked?: { op: string; detail: string };
  }
  const workers = new Map<ChildProcess, Worker>();
  let decisions = 0;
  const WAITS = new Set(['fetch', 'clock.sleep']);
  const pump = (): void => {
    for (const w of workers.values()) readSide(w.name, w.sideFile);
    // Grant steps until a worker runs: one that only waits on the world (a request, a sleep) lets the next go.
    for (;;) {
      if ([...workers.values()].some((w) => w.state === 'running')) return;
      fireDue();
      const asking = [...workers.values()].filter((w) => w.state === 'asking').sort((a, b) => a.pid - b.pid);
      if (asking.length === 0 || [...workers.values()].some((w) => w.state === 'running')) return;
      if (globalStep >= scenario.bounds.maxSteps) {
        outcome = { kind: 'bounds-exceeded', bound: 'steps', detail: `${globalStep} steps taken, the bound is ${scenario.bounds.maxSteps}` };
        for (const w of workers.values()) w.child.kill('SIGKILL');
        return;
      }
      const chosen = asking[asking.length > 1 ? (scenario.schedule[decisions++] ?? 0) % asking.length : 0] as Worker;
      if (chosen.asked?.op === 'fetch') sender = chosen.name;
      chosen.state = WAITS.has(chosen.asked?.op ?? '') ? 'waiting' : 'running';
      if (chosen.child.connected) chosen.child.send({ type: 'go' }, () => {}); // a worker killed meanwhile: its exit comes next
    }
  };

  let nextPid = 1;
  const spawn = (pid: number, incarnation: number): void => {
    const name = `worker-${pid}#${incarnation}`;
    const sideFile = join(root, 'side', `${pid}-${incarnation}.jsonl`);
    const task = taskFor(scenario, incarnation);
    task.service.url = service.url;
    const start: WorkerStart = { bundleFile, durasimIndex: DURASIM_INDEX, task, pid, incarnation, dir, sideFile, faults: scenario.faults, random: scenario.random };
    record('supervisor', 'start', name);
    const child = fork(WORKER, [JSON.stringify(start)], { cwd: dir, execArgv: WORKER_EXEC_ARGV, env: { ...process.env, ...scenario.environment }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    children.add(child);
    live++;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    child.on('error', () => {}); // a send to a worker that just died: its exit says what happened
    const worker: Worker = { name, pid, child, sideFile, state: 'running' };
    workers.set(child, worker);
    child.on('message', (message: FromWorker) => {
      if (message.type === 'ask') {
        worker.state = 'asking';
        worker.asked = { op: message.op, detail: message.detail };
      } else worker.state = 'running';
      pump();
    });
    child.on('exit', (code, signal) => {
      children.delete(child);
      workers.delete(child);
      const side = readSide(name, sideFile);
      const crash = side.find((l): l is Extract<SideLine, { type: 'crash' }> => l.type === 'crash');
      const end = side.find((l): l is Extract<SideLine, { type: 'exit' }> => l.type === 'exit');
      for (const request of core.requests) if (request.sender === name) request.doneSeq ??= trace.length;
      if (crash && signal === 'SIGKILL') {
        record('supervisor', 'crash', `${name} ${crash.when} step ${crash.step} (${crash.op}): SIGKILL`);
        const records = inspect();
        crashes.push({ seq: trace.length - 1, timeMs: performance.now() - started, records, visible: records, survivors: [...children].map(() => 'another worker'), files: files() });
      } else if (code === 0 && !end?.error) record('supervisor', 'exit', `${name} finished`);
      else record('supervisor', 'exit', `${name} failed: ${end?.error ?? (signal ? `killed by ${signal}` : `exit code ${code}`)}${stderr && !end ? ` (${stderr.trim().split('\n').at(-1)})` : ''}`);
      const failed = !(code === 0 && !end?.error);
      live--;
      if (failed && incarnation + 1 < scenario.bounds.maxIncarnations && outcome.kind === 'completed') {
        live++;
        setTimeout(() => {
          live--;
          spawn(pid, incarnation + 1);
        }, Math.min(scenario.restartDelayMs, 20)).unref();
      } else if (failed && outcome.kind === 'completed') {
        outcome = { kind: 'bounds-exceeded', bound: 'incarnations', detail: `worker-${pid} would start incarnation ${incarnation + 1}, the bound is ${scenario.bounds.maxIncarnations}` };
      }
      if (live === 0) {
        fireDue();
        for (let left = events.nextLeftOver(); left && live === 0; left = events.nextLeftOver()) fire(left);
        if (live === 0) finish();
      }
      pump();
    });
  };

  // The service's own clock follows real time: an accepted write lands commitDelayMs after it was accepted.
  const serviceClock = setInterval(() => {
    const nowMs = performance.now() - started;
    for (let due = clock.nextDueMs(); due !== undefined && due <= nowMs; due = clock.nextDueMs()) for (const timer of clock.advance()) timer.fire();
    clock.nowMs = Math.max(clock.nowMs, nowMs); // what the service schedules next counts from now
  }, 5);
  const limit = setTimeout(() => {
    outcome = { kind: 'bounds-exceeded', bound: 'wall-time', detail: `the real run took over ${wallLimitMs} ms` };
    for (const child of children) child.kill('SIGKILL');
    finish();
  }, wallLimitMs);
  // Interrupted (Ctrl-C, a CI cancel): no worker and no folder outlives the run.
  const interrupted = (signal: NodeJS.Signals): void => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    spawn(0, 0);
    await done;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    clearTimeout(limit);
    clearInterval(serviceClock);
    for (const child of children) child.kill('SIGKILL');
    await service.close();
  }
  const final = inspect();
  observer.observe(final, trace.length - 1, 'durable');
  const endFiles = files();
  const secretSightings = token === undefined ? [] : secretSightingsIn(dir, token, trace.length - 1);
  const temp = tempEvidenceIn(dir, scenario, trace.length - 1);
  rmSync(root, { recursive: true, force: true });
  const requests = core.requests.map((r) => ({ ...r, ...(recordsAtArrival.has(r.index) ? { recordsAtArrival: recordsAtArrival.get(r.index) } : {}) }));
  const input: JudgeInput = {
    scenario,
    outcome,
    trace,
    effects: core.effects,
    requests,
    crashes,
    userEdits,
    final: { durable: final, visible: final, files: endFiles, durableFiles: endFiles },
    observed: observer.observed,
    receiptLosses: observer.receiptLosses,
    secretSightings,
    ...(temp ? { temp } : {}),
  };
  if (inspectErrors.length > 0) lines.push(`inspect() threw: ${[...new Set(inspectErrors)].join('; ')}`);
  return { input, lines, wallMs: performance.now() - started };
}
