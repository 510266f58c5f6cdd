/**
 * The world of a real worker process, counted as the simulator counts it: `env` over real files,
 * the real service and the real clock with every call a step under the simulator's name (fs.open,
 * fh.sync, fetch, clock.now, random…), and Node's own calls — the ones the simulator serves — made
 * for real and counted the same way (fs.promises.writeFile, fs.writeFileSync, Date.now…). The
 * scenario's random draws answer env.random() and Math.random(), as under simulation; everything
 * else is real. Two differences stay: a node:http request is counted when it is made (the simulator
 * counts it when its body ends), and a worker waiting on a timer of its own counts as running, so
 * the parent grants others no step meanwhile (the simulator would).
 */
import { relative, resolve } from 'node:path';
import { outsideTurn, type TurnHolder } from '../../simulator/sandbox/ambientGuard.js';
import { mkdirSync } from 'node:fs';
import { NOT_STEPS, SERVED_APIS } from '../../simulator/node/served/serveCall.js';
import { MKDTEMP_ATTEMPTS, mkdtempName } from '../../simulator/node/served/fsCompound.js';
import { preview, previewData } from '../../simulator/world/trace.js';
import type { Env, FileHandle, Store } from '../../model/contract/contract.js';
import { storeOver, storeStepDetail } from '../../simulator/node/simStore.js';
import { keyOutsidePath } from '../../simulator/service/contractRoute.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';
import type { StepCounter } from './stepCounter.js';
import { countedWholeFile, NOT_SPLIT } from './countedSteps.js';
import type { StoreCaller } from './storeClient.js';

/**
 * The calls on two paths the simulator details as "from → to" (fsOps.ts: rename, link, cp; copyFile is split, countedSteps.ts).
 * Named by the first path alone here, a real worker counted a link onto notes.md as no step naming notes.md, and a crash
 * anchored before it landed at a later step (the fourth real restart of examples/node-journal, 2026-12-07).
 */
const TWO_PATHS = new Set(['rename', 'link', 'cp', 'copyFile']);
/** node:fs calls whose first argument may be a descriptor, which the simulator names by the file it has open (fsOps.ts fdName, targetName). */
const ON_DESCRIPTOR = new Set(['write', 'read', 'close', 'fsync', 'fdatasync', 'ftruncate', 'fstat', 'writev', 'readv', 'fchmod', 'fchown', 'futimes', 'writeFile', 'appendFile', 'readFile']);
const STANDARD_STREAMS: Record<number, string> = { 0: 'stdin', 1: 'stdout', 2: 'stderr' };
/** Data as the simulator shows what a write writes (fsOps.ts show). */
const show = (data: unknown): string => (typeof data === 'string' || ArrayBuffer.isView(data) ? previewData(data) : preview(String(data)));

const SERVED = new Set(SERVED_APIS);
/** Randomness served as bytes: one draw each, as simulated (simulator/node/served/servedRandom.ts). */
const RANDOM_BYTES = new Set(['crypto.randomUUID', 'crypto.randomBytes', 'crypto.getRandomValues', 'crypto.randomFillSync', 'crypto.randomFill']);
/** The served SQLite classes (simulator/node/served/servedSqlite.ts): in a real process, the native ones, whose work no step of the simulator's names. */
const NATIVE_SQLITE = new Set(['better-sqlite3.Database', 'sqlite.DatabaseSync']);
const HANDLE_METHODS = new Set(['readFile', 'writeFile', 'appendFile', 'read', 'write', 'stat', 'truncate', 'sync', 'datasync', 'close']);

const text = (data: unknown): string => (typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8') : '');

export class CountedWorld {
  private draws = 0;
  /** The descriptors node:fs's open gave in this process, named by their paths (fsDetail). */
  private readonly descriptors = new Map<number, string>();

  constructor(
    private readonly counter: StepCounter,
    private readonly dir: string,
    /** The scenario's format version (countedSteps.ts: whole-file calls split from 2 on). */
    private readonly version: number,
    private readonly random: readonly number[],
    /** The confirmation's shared store (storeClient.ts), when the parent serves one. */
    private readonly storeCall?: StoreCaller,
    /** The real service's base URL as the task names it, and the contract it speaks (a fetch step names a key outside the path, as simulated). */
    private readonly service?: { url: string; contract?: ServiceContract },
  ) {}

  private name(path: unknown): string {
    const value = path instanceof URL ? path.pathname : String(path);
    const rel = relative(this.dir, value.startsWith('/') ? value : `${this.dir}/${value}`);
    return rel === '' ? '/work' : rel;
  }

  private draw(): number {
    return this.random[this.draws++] ?? 0;
  }

  /** A FileHandle whose methods are scheduled steps (fh.*), as the simulated one's are. */
  handle<T extends object>(real: T, path: unknown, isDirectory: boolean): T {
    const name = isDirectory ? `${this.name(path)}/` : this.name(path);
    return new Proxy(real, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof property !== 'string' || !HANDLE_METHODS.has(property) || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const shown = property === 'writeFile' || property === 'appendFile' || property === 'write' ? `${name} ${preview(text(args[0]))}` : name;
          return this.counter.scheduled(`fh.${property}`, shown, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        };
      },
    });
  }

  /** env over real files and the real service, every call counted under the simulator's name. */
  env(real: Env): Env {
    const c = this.counter;
    const fs = real.fs;
    const named = (path: string): string => this.name(path);
    // env's own Node calls are not the journal's: made outside its turn, they are not counted twice.
    const out = <T>(call: () => Promise<T>): Promise<T> => outsideTurn(call);
    return {
      ...real,
      fs: {
        open: (path, flags = 'r') => c.scheduled('fs.open', `${named(path)} ${flags}`, async () => this.handle(await out(() => fs.open(path, flags)), path, path === '.' || path === real.dir) as FileHandle),
        appendFile: (path, data) => c.scheduled('fs.appendFile', `${named(path)} ${preview(text(data))}`, () => out(() => fs.appendFile(path, data))),
        writeFile: (path, data, options) => {
          // Format 2 on: Node's open, write and close, as simulated (countedSteps.ts), counted under env's name.
          const split = countedWholeFile(c, this.version, 'fs.promises.writeFile', [resolve(real.dir, path), data, options], (p) => this.name(p), 'fs.writeFile');
          if (split !== NOT_SPLIT) return split as Promise<void>;
          return c.scheduled('fs.writeFile', `${named(path)} ${preview(text(data))}`, () => out(() => fs.writeFile(path, data, options)));
        },
        readFile: ((path: string, encoding?: 'utf8') => c.scheduled<string | Uint8Array>('fs.readFile', named(path), () => out<string | Uint8Array>(() => (encoding ? fs.readFile(path, encoding) : fs.readFile(path))))) as Env['fs']['readFile'],
        rename: (from, to) => c.scheduled('fs.rename', `${named(from)} → ${named(to)}`, () => out(() => fs.rename(from, to))),
        link: (from, to) => c.scheduled('fs.link', `${named(from)} → ${named(to)}`, () => out(() => fs.link(from, to))),
        unlink: (path) => c.scheduled('fs.unlink', named(path), () => out(() => fs.unlink(path))),
        mkdir: (path, options) => c.scheduled('fs.mkdir', named(path), () => out(() => fs.mkdir(path, options))),
        readdir: (path) => c.scheduled('fs.readdir', named(path), () => out(() => fs.readdir(path))),
        stat: (path) => c.scheduled('fs.stat', named(path), () => out(() => fs.stat(path))),
      },
      fetch: (input, init) => c.scheduled('fetch', this.request(input, init), () => out(() => real.fetch(input, init))),
      clock: {
        now: () => c.scheduled('clock.now', '', () => out(() => real.clock.now())),
        sleep: (ms) => c.scheduled('clock.sleep', `${ms}ms`, () => out(() => real.clock.sleep(ms))),
        timeout: (ms) => c.scheduled('clock.timeout', `${ms}ms`, () => out(() => real.clock.timeout(ms))),
      },
      random: () => c.scheduled('random', '', async () => this.draw()),
      ...(this.storeCall ? { store: this.store(this.storeCall) } : {}),
    };
  }

  /** env.store over the real shared store: every call a step, named and detailed as the simulated store's. */
  private store(call: StoreCaller): Store {
    return storeOver((request, shape) => this.counter.scheduled(`store.${request.op}`, storeStepDetail(request), () => outsideTurn(() => call(request))).then(shape));
  }

  private request(input: unknown, init?: { method?: string; headers?: HeadersInit; body?: unknown }): string {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = this.keyHint(input, init);
    return `${(init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()} ${url.pathname}${url.search}${key === undefined ? '' : ` [${key}]`}`;
  }

  /**
   * The key a request names outside its path under the scenario's contract, as the simulated fetch's
   * step names it (network.ts keyHint): read off the URL below the real service's base, put back below
   * the contract's, so that a fault anchored to the key's mentions strikes the same step for real.
   */
  private keyHint(input: unknown, init: { method?: string; headers?: HeadersInit; body?: unknown } | undefined): string | undefined {
    const contract = this.service?.contract;
    if (contract === undefined || !(typeof input === 'string' || input instanceof URL)) return undefined;
    const url = String(input);
    const base = this.service?.url ?? '';
    if (url !== base && !url.startsWith(`${base}/`)) return undefined;
    try {
      return keyOutsidePath(contract, `${contract.url.replace(/\/+$/, '')}${url.slice(base.length)}`, init);
    } catch {
      return undefined;
    }
  }

  /** The sandbox's holder in a real process: Node's calls are made for real, the ones the simulator serves counted as steps. */
  holder(pid: number, exit: (code: number) => never): TurnHolder {
    return {
      simulated: { pid, cwd: this.dir, env: { ...process.env } as Record<string, string> },
      onEscape: (api) => ({ api, pid, incarnation: 0, message: '' }),
      exit: (code) => exit(code),
      // A native SQLite opened (better-sqlite3, node:sqlite) is no step: its system calls are made inside the journal's calls, out of JavaScript's sight (docs/sqlite.md).
      serve: (api, args, _thisArg, _newTarget, real) => (NATIVE_SQLITE.has(api) ? outsideTurn(real) : SERVED.has(api) ? this.counted(api, args, real) : real()),
    };
  }

  /** crypto.randomInt([min,] max[, callback]) as simulated: min + the next draw × (max − min), rounded down; one step, its callback later. */
  private randomInt(args: readonly unknown[]): unknown {
    const callback = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as (error: unknown, value?: number) => void) : undefined;
    const numbers = (callback ? args.slice(0, -1) : args) as number[];
    const [min, max] = numbers.length >= 2 ? [numbers[0] as number, numbers[1] as number] : [0, numbers[0] as number];
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) {
      throw Object.assign(new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`), { code: 'ERR_OUT_OF_RANGE' });
    }
    const pick = (): number => this.counter.atomic('crypto.randomInt', '', () => min + Math.floor(this.draw() * (max - min)));
    if (!callback) return pick();
    let result: { ok: true; value: number } | { ok: false; error: unknown };
    try {
      result = { ok: true, value: pick() };
    } catch (error) {
      result = { ok: false, error };
    }
    queueMicrotask(() => (result.ok ? callback(null, result.value) : callback(result.error)));
    return undefined;
  }

  /** mkdtemp as simulated (fsOps.ts): the name from the next draw, made 0700 for real, the next name where one is taken. */
  private mkdtemp(api: string, args: readonly unknown[]): unknown {
    const prefix = String(args[0]);
    const draw = this.draw();
    const detail = `${this.name(prefix)}XXXXXX`;
    const make = (): string => {
      for (let attempt = 0; attempt < MKDTEMP_ATTEMPTS; attempt++) {
        const path = mkdtempName(prefix, draw, attempt);
        try {
          outsideTurn(() => mkdirSync(path, 0o700));
          return path;
        } catch (error) {
          if ((error as { code?: string }).code !== 'EEXIST') throw error;
        }
      }
      throw Object.assign(new Error(`EEXIST: file already exists, mkdtemp '${prefix}XXXXXX'`), { code: 'EEXIST', syscall: 'mkdtemp' });
    };
    if (api === 'fs.mkdtempSync') return this.counter.atomic(api, detail, make);
    const made = this.counter.scheduled(api, detail, async () => make());
    const callback = args[args.length - 1];
    if (api === 'fs.mkdtemp' && typeof callback === 'function') {
      made.then((path) => callback(null, path), (error: unknown) => callback(error));
      return undefined;
    }
    return made;
  }

  /** A Dir (fs.opendir) whose reads and closes are steps (dir.read, dir.readSync, dir.close, dir.closeSync), as the simulated one's are. */
  private counting<T extends object>(real: T, path: unknown): T {
    const name = `${this.name(path)}/`;
    const proxy: T = new Proxy(real, {
      get: (target, property, receiver) => {
        // Node's own iteration reads through internal symbols: iterate through the counted read and close instead, as the simulated Dir does.
        if (property === Symbol.asyncIterator) {
          const dir = proxy as unknown as { read(): Promise<unknown>; close(): Promise<void> };
          return async function* () {
            let closed = false;
            try {
              for (let entry = await dir.read(); entry !== null; entry = await dir.read()) yield entry;
              closed = true;
              await dir.close();
            } finally {
              if (!closed) await dir.close();
            }
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function' || !['read', 'readSync', 'close', 'closeSync'].includes(String(property))) return value;
        const call = (...args: unknown[]): unknown => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property === 'readSync' || property === 'closeSync') return (...args: unknown[]) => this.counter.atomic(`dir.${property}`, name, () => call(...args));
        return (...args: unknown[]) => (typeof args[0] === 'function' ? call(...args) : this.counter.scheduled(`dir.${String(property)}`, name, () => call(...args) as Promise<unknown>));
      },
    });
    return proxy;
  }

  private counted(api: string, args: readonly unknown[], real: () => unknown): unknown {
    const c = this.counter;
    // What the simulator serves as no step (node:os, the process's constants) is no step here either.
    if (NOT_STEPS.has(api)) return real();
    // Node's own streams are no step of their own (as simulated): the calls they make are.
    if (api === 'fs.createReadStream' || api === 'fs.createWriteStream') return real();
    // Nor are a process's own channels (as simulated, their messages reach nothing outside it).
    if (api.endsWith('MessageChannel') || api.endsWith('BroadcastChannel')) return real();
    // mkdtemp is served from the scenario's draws, as simulated: the same name, and the later draws stay aligned.
    if (api === 'fs.mkdtempSync' || api === 'fs.mkdtemp' || api === 'fs.promises.mkdtemp') return this.mkdtemp(api, args);
    // Whole-file calls through a path are Node's open, write, close, each counted, as simulated (format 2 on).
    const split = countedWholeFile(c, this.version, api, args, (path) => this.name(path));
    if (split !== NOT_SPLIT) return split;
    if (api === 'fs.opendirSync') return this.counting(c.atomic(api, this.name(args[0]), real) as object, args[0]);
    if (api === 'fs.promises.opendir') return c.scheduled(api, this.name(args[0]), async () => this.counting((await real()) as object, args[0]));
    if (api === 'Math.random') return c.atomic(api, '', () => this.draw()); // allow-ambient: names what it counts
    // A number drawn is the scenario's, as simulated; bytes (ids, UUIDs, keys) are real, and take their draw so the later draws line up.
    if (api === 'crypto.randomInt') return this.randomInt(args);
    if (RANDOM_BYTES.has(api)) return c.atomic(api, '', () => {
      this.draws++;
      return real();
    });
    if (api === 'fetch') return c.scheduled('fetch', this.request(args[0], args[1] as { method?: string; headers?: HeadersInit; body?: unknown } | undefined), real as () => Promise<unknown>);
    if (api === 'http.request' || api === 'http.get' || api === 'https.request' || api === 'https.get') return c.atomic('fetch', this.request(args[0]), real);
    if (api.startsWith('fs.promises.')) {
      const detail = TWO_PATHS.has(api.slice('fs.promises.'.length)) ? `${this.name(args[0])} → ${this.name(args[1])}` : `${this.name(args[0])}${api.endsWith('.open') ? ` ${String(args[1] ?? 'r')}` : api.endsWith('File') && args[1] !== undefined ? ` ${preview(text(args[1]))}` : ''}`;
      const run = api === 'fs.promises.open' ? async () => this.handle((await real()) as object, args[0], String(args[0]) === '.' || String(args[0]) === this.dir) : (real as () => Promise<unknown>);
      return c.scheduled(api, detail, run);
    }
    if (api.startsWith('fs.') && !api.endsWith('Sync') && typeof args[args.length - 1] === 'function') {
      // The callback API: a scheduled step whose callback runs once it completed. (`real` makes the
      // call with this very argument list, so its last entry is swapped for one that completes the step.)
      const list = args as unknown[];
      const callback = list[list.length - 1] as (...values: unknown[]) => void;
      const completed = c.scheduled(api, this.fsDetail(api, args), () =>
        new Promise<unknown[]>((resolve) => {
          list[list.length - 1] = (...values: unknown[]) => resolve(values);
          real();
        }),
      );
      void completed.then((values) => {
        this.noteDescriptor(api, args, values[0] == null ? values[1] : undefined);
        callback(...(api === 'fs.opendir' && values[1] !== undefined ? [values[0], this.counting(values[1] as object, args[0])] : values));
      });
      return undefined;
    }
    if (!api.startsWith('fs.')) return c.atomic(api, '', real);
    return c.atomic(api, this.fsDetail(api, args), () => {
      const value = real();
      this.noteDescriptor(api, args, value);
      return value;
    });
  }

  /**
   * What a step of node:fs's callback or synchronous API shows, as the simulator shows it (simulator/node/served/fsOps.ts), as far
   * as the task's names go: a call on two paths as "from → to"; one on a descriptor by the file it has open (what the descriptor's
   * open named), with what a write writes. An anchor on a path or a key then counts the same steps in both worlds.
   */
  private fsDetail(api: string, args: readonly unknown[]): string {
    const call = api.slice('fs.'.length).replace(/Sync$/, '');
    if (TWO_PATHS.has(call)) return `${this.name(args[0])} → ${this.name(args[1])}`;
    if (typeof args[0] !== 'number' || !ON_DESCRIPTOR.has(call)) return this.name(args[0]);
    const file = STANDARD_STREAMS[args[0]] ?? this.descriptors.get(args[0]) ?? `fd ${args[0]}`;
    if (call === 'write' || call === 'writeFile' || call === 'appendFile') return `${file} ${show(args[1])}`;
    if (call === 'ftruncate') return `${file} ${Number(args[1] ?? 0)}`;
    return file;
  }

  /** A descriptor an open gave (named as its path), or one a close let go. */
  private noteDescriptor(api: string, args: readonly unknown[], value: unknown): void {
    const call = api.slice('fs.'.length).replace(/Sync$/, '');
    if (call === 'open' && typeof value === 'number') this.descriptors.set(value, this.name(args[0]));
    else if (call === 'close' && typeof args[0] === 'number') this.descriptors.delete(args[0]);
  }
}
