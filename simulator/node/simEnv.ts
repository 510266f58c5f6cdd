/**
 * The simulated Env handed to one incarnation of a worker: every call is a scheduler step.
 *
 * Rules:
 * - fs calls act on the crash-consistent Disk; errors are memfs's Node-style errors (err.code).
 *   One step each, but writeFile from scenario format 2 on: open (truncating), write, close.
 * - fetch: the request reaches the service when the step runs (the service acts then); the
 *   response arrives latencyMs (+ any delay fault) later in virtual time, or never when it is
 *   dropped; an AbortSignal (env.clock.timeout) rejects it with the signal's reason.
 * - clock: virtual time; now() is VIRTUAL_EPOCH_MS + elapsed virtual milliseconds.
 * - random(): the scenario's values in call order, 0 past the end.
 */
import type { Env, EnvFs, FileHandle, Stats } from '../../model/contract/contract.js';
import { callOfTurn, outsideTurn } from '../sandbox/ambientGuard.js';
import { responseOf, UnreachableHostError } from '../service/network.js';
import { timeoutReason, type Timer } from '../world/clock.js';
import { previewData, rel } from '../world/trace.js';
import type { Outcome, Proc } from '../world/proc.js';
import { explainLoss, gapsOf } from '../disk/crashReport.js';
import type { StepHost } from '../world/host.js';
import type { OpenFile } from '../disk/disk.js';
import type { ServiceRequestRecord } from '../service/service.js';
import { simulatedStore } from './simStore.js';
import { FS_STEPS, stepsScheduled } from './served/fsSteps.js';
import { memfsStats } from '../disk/diskState.js';
import { lockServedClass } from '../sandbox/lockServedClass.js';
import { textResponseClass } from '../service/textResponse.js';

export { VIRTUAL_EPOCH_MS } from '../world/clock.js';

const encoder = new TextEncoder();
const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);
const show = (data: string | Uint8Array): string => previewData(data);

let handedClassesLocked = false;

export function simulatedEnv(world: StepHost, proc: Proc): Env {
  // What the disk and the service make and a journal is handed (memfs's Stats from a stat, the fetch Response) is locked as
  // durasim's served classes are, once a thread: a property left on one of their methods outlived every crash.
  if (!handedClassesLocked) {
    lockServedClass(memfsStats());
    lockServedClass(textResponseClass());
    handedClassesLocked = true;
  }
  const disk = world.disk;
  const pid = proc.pid;
  const sync = <T>(op: string, detail: string, run: () => T): Promise<T> => world.syncStep(proc, op, detail, run);
  /** A write: its bytes go into the payload hash when the step runs (the trace shows a preview). */
  const write = (op: string, detail: string, data: string | Uint8Array, run: () => void): Promise<void> =>
    world.syncStep(proc, op, detail, () => {
      world.notePayload(data);
      run();
    });

  const handleFor = (file: OpenFile): FileHandle => {
    const { path, isDirectory } = file;
    const fd = (): number => disk.fdOf(file);
    // A directory's handle shows as "dir/": its fsync is a directory fsync.
    const name = isDirectory ? `${rel(path)}/` : rel(path);
    const readFile = ((options?: { encoding?: 'utf8' | null } | 'utf8') =>
      sync('fh.readFile', name, () => {
        const bytes = disk.handleRead(fd());
        const utf8 = options === 'utf8' || (typeof options === 'object' && options?.encoding === 'utf8');
        return utf8 ? bytes.toString('utf8') : new Uint8Array(bytes);
      })) as FileHandle['readFile'];
    return {
      appendFile: (data) => write('fh.appendFile', `${name} ${show(data)}`, data, () => disk.handleWrite(fd(), bytesOf(data))),
      writeFile: (data) => write('fh.writeFile', `${name} ${show(data)}`, data, () => disk.handleWrite(fd(), bytesOf(data))),
      readFile,
      sync: () => sync('fh.sync', name, () => disk.handleSync(fd())),
      close: () => sync('fh.close', name, () => {
        if (disk.isOpen(file)) disk.handleClose(file.fd); // closing a closed FileHandle does nothing, as in node:fs
      }),
    };
  };

  const fs: EnvFs = {
    open: (path, flags = 'r') =>
      sync('fs.open', `${rel(disk.resolve(path))} ${flags}`, () => {
        const file = disk.openFile(path, flags, pid);
        return handleFor(file);
      }),
    appendFile: (path, data) => write('fs.appendFile', `${rel(disk.resolve(path))} ${show(data)}`, data, () => disk.writeWhole(path, bytesOf(data), 'a', pid)),
    // From scenario format 2 on, writeFile is Node's open (truncating), write and close: three steps (served/fsSteps.ts).
    // appendFile stays one: its open of an existing file changes nothing a kill could show.
    writeFile: (path, data, options) => {
      const steps = FS_STEPS.writeFileSync?.({ world, proc }, [path, data, options]);
      if (steps) return stepsScheduled({ world, proc }, 'fs.writeFile', steps).then(() => undefined);
      return write('fs.writeFile', `${rel(disk.resolve(path))} ${show(data)}`, data, () => disk.writeWhole(path, bytesOf(data), options?.flag ?? 'w', pid));
    },
    readFile: ((path: string, encoding?: 'utf8') =>
      sync('fs.readFile', rel(disk.resolve(path)), () => {
        const bytes = disk.readFile(path);
        return encoding === 'utf8' ? bytes.toString('utf8') : new Uint8Array(bytes);
      })) as EnvFs['readFile'],
    rename: (from, to) => sync('fs.rename', `${rel(disk.resolve(from))} → ${rel(disk.resolve(to))}`, () => disk.rename(from, to)),
    link: (existing, to) => sync('fs.link', `${rel(disk.resolve(existing))} → ${rel(disk.resolve(to))}`, () => disk.link(existing, to)),
    unlink: (path) => sync('fs.unlink', rel(disk.resolve(path)), () => disk.unlink(path)),
    mkdir: (path, options) => sync('fs.mkdir', rel(disk.resolve(path)), () => disk.mkdir(path, options?.recursive ?? false)),
    readdir: (path) => sync('fs.readdir', rel(disk.resolve(path)), () => disk.readdir(path)),
    stat: (path) => sync<Stats>('fs.stat', rel(disk.resolve(path)), () => disk.stat(path)),
  };

  const fetch = simulatedFetch(world, proc);

  const clock: Env['clock'] = {
    now: () => sync('clock.now', '', () => world.clock.epochMs),
    sleep: (ms) =>
      world.step<void>(proc, 'clock.sleep', `${ms}ms`, (complete) => {
        world.procTimer(proc, ms, 'sleep', () => complete({ ok: true, value: undefined }));
      }),
    timeout: (ms) => {
      // The abort runs the journal's own listeners: under its turn (and the call of run() that set it), so what they reach is seen.
      const call = callOfTurn();
      return sync('clock.timeout', `${ms}ms`, () => {
        const controller = new AbortController();
        world.procTimer(proc, ms, 'timeout', () => world.turns.abortAs(proc, controller, timeoutReason(), call));
        return controller.signal;
      });
    },
  };

  return {
    dir: disk.dir,
    fs,
    fetch,
    clock,
    store: simulatedStore(world, proc),
    random: () => sync('random', '', () => world.scenario.random[world.randomDraws++] ?? 0),
    pid,
    incarnation: proc.incarnation,
  };
}

/** fetch in the simulated world: a step whose request reaches the service when it runs (simEnv's rules). */
export function simulatedFetch(world: StepHost, proc: Proc): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = input instanceof Request ? input.url : String(input);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const where = world.network.reachable(url) ? url.slice(world.network.serviceUrl.length) || '/' : url;
    // A contract's key outside the path (a header, the body) is named too: a fault anchored to the key finds the step.
    const key = world.network.keyHint(input, init);
    return world.step<Response>(proc, 'fetch', `${method} ${where}${key === undefined ? '' : ` [${key}]`}`, async (complete) => {
      if (signal?.aborted) {
        complete({ ok: false, error: signal.reason, note: 'aborted before sending' });
        return;
      }
      const request = await world.network.read(input, init);
      if (!world.network.reachable(request.url)) {
        // Another host: it never reaches the service (routed-requests counts it).
        world.strayRequests.push({ seq: world.trace.length, sender: proc.name, method: request.method, url: request.url });
        complete({ ok: false, error: new UnreachableHostError(request.url, world.network.serviceUrl), note: 'unreachable host' });
        return;
      }
      if (request.route.kind !== 'query') {
        const index = world.service.requests.length;
        const records = world.inspect('durable');
        // A write that arrives before its record is durable: what the disk holds only in its page cache explains why.
        const key = request.route.kind === 'publish' ? request.route.key : undefined;
        const early = key !== undefined && records[key]?.history.at(-1) !== 'dispatched';
        const loss = early ? world.disk.lossIfCrashedNow() : undefined;
        world.arrivals.set(index, loss ? { records, unsynced: explainLoss(loss, rel), gaps: gapsOf(loss, rel) } : { records });
      }
      world.notePayload(`${request.method} ${request.url}\n${request.body}`);
      const reply = await world.network.send(request);
      const record = world.service.requests[world.service.requests.length - 1];
      if (record) {
        record.seq = world.trace.length;
        record.sender = proc.name;
        if (record.route.kind === 'unknown') record.path = new URL(request.url).pathname;
      }
      world.record({
        actor: 'service',
        op: 'receive',
        detail: `#${record?.index} ${method} ${where} → ${reply.status}${record?.fault ? ` [${record.fault}]` : ''}${reply.deliver === 'drop' ? ' (response dropped)' : reply.deliver === 'reset' ? ' (connection reset)' : ''}`,
      });
      let timer: Timer | undefined;
      const done = (): void => {
        if (record) record.doneSeq ??= world.trace.length;
      };
      // Run by the journal's abort (its code, its context): what follows is the world's own work.
      const onAbort = (): void =>
        outsideTurn(() => {
          if (timer) world.clock.cancel(timer);
          done();
          complete({ ok: false, error: signal?.reason, note: 'aborted: timeout' });
        });
      if (reply.deliver === 'respond') {
        timer = world.procTimer(proc, world.scenario.service.latencyMs + reply.delayMs, 'response', () => {
          signal?.removeEventListener('abort', onAbort);
          done();
          if (record) {
            record.answered = true;
            if (FAILURE_CLASSES.has(record.status) && record.route.kind === 'publish') noteHeardHistory(world, record);
          }
          complete({ ok: true, value: responseOf(reply), note: `${reply.status}${reply.cut ? ' (body will be cut)' : ''}` } as Outcome<unknown>);
        });
      }
      if (reply.deliver === 'reset') {
        timer = world.procTimer(proc, world.scenario.service.latencyMs, 'connection reset', () => {
          signal?.removeEventListener('abort', onAbort);
          done();
          complete({ ok: false, error: connectionReset(), note: 'connection reset' });
        });
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
}

/** The answers whose rules bind what the hearer does next (failure-class-respected). */
const FAILURE_CLASSES = new Set([400, 403, 503]);

/** The key's states in the page cache as its sender hears a failure-class answer (ServiceRequestRecord.heardHistory). */
function noteHeardHistory(world: StepHost, record: ServiceRequestRecord): void {
  const records = world.peekVisible();
  if (records !== undefined && record.route.kind === 'publish') record.heardHistory = [...(records[record.route.key]?.history ?? [])];
}

/** What Node's fetch rejects with when the peer resets the connection: TypeError "fetch failed", caused by ECONNRESET. */
function connectionReset(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' }) });
}
