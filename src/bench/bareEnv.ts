/**
 * The bare runs the simulator is measured against: the same journal and task on a plain in-memory
 * fs (memfs, no durability layer), direct service calls, an instant clock, no scheduler, no trace,
 * no faults.
 * - 'promises': memfs's own promise API, as a journal on a plain in-memory fs would run (the
 *   overhead row of the bench).
 * - 'sync': memfs's synchronous calls behind async functions, the cheapest env there is: the
 *   journal's own work and memfs's, nothing else — a floor no simulator on memfs can go under.
 */
import { Volume } from 'memfs';
import { posix } from 'node:path';
import { missingStore } from '../realEnv.js';
import type { Env, EnvFs, FileHandle } from '../../model/contract/contract.js';
import { VirtualClock } from '../../simulator/world/clock.js';
import { responseOf } from '../../simulator/service/network.js';
import { DEFAULT_SERVICE, SERVICE_URL } from '../../simulator/scenario/scenario.js';
import { routeOf, ServiceCore } from '../../simulator/service/service.js';

type At = (path: string) => string;

function promiseFs(vol: Volume, at: At): EnvFs {
  const p = vol.promises;
  return {
    open: async (path, flags = 'r') => {
      const handle = await p.open(at(path), flags);
      const wrapped: FileHandle = {
        appendFile: (data) => handle.appendFile(data),
        writeFile: (data) => handle.writeFile(data),
        readFile: ((options?: 'utf8' | { encoding?: 'utf8' | null }) => handle.readFile(options as 'utf8')) as FileHandle['readFile'],
        sync: async () => {},
        close: () => handle.close(),
      };
      return wrapped;
    },
    appendFile: (path, data) => p.appendFile(at(path), data),
    writeFile: (path, data, options) => p.writeFile(at(path), data, { flag: options?.flag ?? 'w' }),
    readFile: ((path: string, encoding?: 'utf8') => p.readFile(at(path), encoding)) as EnvFs['readFile'],
    rename: (from, to) => p.rename(at(from), at(to)),
    link: (existing, to) => p.link(at(existing), at(to)),
    unlink: (path) => p.unlink(at(path)),
    mkdir: async (path, options) => {
      await p.mkdir(at(path), options);
    },
    readdir: async (path) => ((await p.readdir(at(path))) as string[]).map(String).sort(),
    stat: async (path) => {
      const s = await p.stat(at(path));
      return { size: Number(s.size), isFile: () => s.isFile(), isDirectory: () => s.isDirectory() };
    },
  };
}

function syncFs(vol: Volume, at: At): EnvFs {
  const bytes = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? Buffer.from(data) : data);
  return {
    open: async (path, flags = 'r') => {
      const fd = vol.openSync(at(path), flags) as number;
      const wrapped: FileHandle = {
        appendFile: async (data) => void vol.writeSync(fd, bytes(data)),
        writeFile: async (data) => void vol.writeSync(fd, bytes(data)),
        readFile: (async (options?: 'utf8' | { encoding?: 'utf8' | null }) => {
          const read = vol.readFileSync(fd) as Buffer;
          return options === 'utf8' || (typeof options === 'object' && options?.encoding === 'utf8') ? read.toString('utf8') : new Uint8Array(read);
        }) as FileHandle['readFile'],
        sync: async () => {},
        close: async () => vol.closeSync(fd),
      };
      return wrapped;
    },
    appendFile: async (path, data) => vol.appendFileSync(at(path), data),
    writeFile: async (path, data, options) => vol.writeFileSync(at(path), data, { flag: options?.flag ?? 'w' }),
    readFile: (async (path: string, encoding?: 'utf8') => vol.readFileSync(at(path), encoding)) as EnvFs['readFile'],
    rename: async (from, to) => vol.renameSync(at(from), at(to)),
    link: async (existing, to) => vol.linkSync(at(existing), at(to)),
    unlink: async (path) => vol.unlinkSync(at(path)),
    mkdir: async (path, options) => void vol.mkdirSync(at(path), options),
    readdir: async (path) => (vol.readdirSync(at(path)) as string[]).map(String).sort(),
    stat: async (path) => {
      const s = vol.statSync(at(path));
      return { size: Number(s.size), isFile: () => s.isFile(), isDirectory: () => s.isDirectory() };
    },
  };
}

export function bareEnv(files: Record<string, string>, resources: Record<string, string>, mode: 'promises' | 'sync' = 'promises'): Env {
  const dir = '/work';
  const vol = Volume.fromJSON(Object.fromEntries(Object.entries(files).map(([p, t]) => [posix.join(dir, p), t])), dir);
  vol.mkdirSync(dir, { recursive: true });
  const at = (path: string): string => posix.resolve(dir, path);
  const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources }, [], new VirtualClock());
  const never = new AbortController().signal;
  return {
    dir,
    fs: mode === 'sync' ? syncFs(vol, at) : promiseFs(vol, at),
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = typeof init?.body === 'string' ? init.body : '';
      return responseOf(core.receive(method, routeOf(method, url.pathname), body));
    },
    clock: { now: async () => 0, sleep: async () => {}, timeout: async () => never },
    store: missingStore(),
    random: async () => 0,
    pid: 0,
    incarnation: 0,
  };
}

export const BARE_SERVICE_URL = SERVICE_URL;
