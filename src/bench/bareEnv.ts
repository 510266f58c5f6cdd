/**
 * The bare run the simulator's overhead is measured against: the same journal and task on a plain
 * in-memory fs (memfs, no durability layer), direct service calls, an instant clock, no scheduler,
 * no trace, no faults.
 */
import { Volume } from 'memfs';
import { posix } from 'node:path';
import { missingStore } from '../realEnv.js';
import type { Env, EnvFs, FileHandle } from '../../model/contract/contract.js';
import { VirtualClock } from '../../simulator/clock.js';
import { responseOf } from '../../simulator/network.js';
import { DEFAULT_SERVICE, SERVICE_URL } from '../../simulator/scenario.js';
import { routeOf, ServiceCore } from '../../simulator/service.js';

export function bareEnv(files: Record<string, string>, resources: Record<string, string>): Env {
  const dir = '/work';
  const vol = Volume.fromJSON(Object.fromEntries(Object.entries(files).map(([p, t]) => [posix.join(dir, p), t])), dir);
  vol.mkdirSync(dir, { recursive: true });
  const p = vol.promises;
  const at = (path: string): string => posix.resolve(dir, path);
  const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources }, [], new VirtualClock());
  const fs: EnvFs = {
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
  const never = new AbortController().signal;
  return {
    dir,
    fs,
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
