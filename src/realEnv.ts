/**
 * The production Env: real files, the global fetch, the real clock. The journal code that runs
 * under simulation runs unchanged against this.
 */
import { open, appendFile, writeFile, readFile, rename, link, unlink, mkdir, readdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Env, EnvFs, FileHandle, Store } from '../model/contract/contract.js';
import { DurasimError } from '../model/contract/failure.js';

export interface RealEnvOptions {
  /** The working directory (default: process.cwd()). */
  dir?: string;
  /** The worker slot (default 0); keep it stable across restarts of the same worker. */
  pid?: number;
  /** How many times this worker slot has been restarted (default 0). */
  incarnation?: number;
  /** The shared store: an adapter over your database (docs/adapters.md). Without one, env.store rejects every call. */
  store?: Store;
}

/** env.store when realEnv was given none: every call rejects and says how to give one. */
export function missingStore(): Store {
  const refuse = async (): Promise<never> => {
    throw new DurasimError('reach the shared store', 'realEnv was given no store', 'Pass realEnv({ store }) an adapter over your database; docs/adapters.md maps Redis and DynamoDB onto it');
  };
  return { get: refuse, put: refuse, delete: refuse, list: refuse, now: refuse, lease: { acquire: refuse, renew: refuse, release: refuse } };
}

export function realEnv(options: RealEnvOptions = {}): Env {
  const dir = resolve(options.dir ?? process.cwd());
  const at = (path: string): string => resolve(dir, path);
  const fs: EnvFs = {
    open: async (path, flags = 'r') => {
      const handle = await open(at(path), flags);
      const wrapped: FileHandle = {
        appendFile: (data) => handle.appendFile(data),
        writeFile: (data) => handle.writeFile(data),
        readFile: ((options?: { encoding?: 'utf8' | null } | 'utf8') => handle.readFile(options as 'utf8')) as FileHandle['readFile'],
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
      return wrapped;
    },
    appendFile: (path, data) => appendFile(at(path), data),
    writeFile: (path, data, options) => writeFile(at(path), data, { flag: options?.flag ?? 'w' }),
    readFile: ((path: string, encoding?: 'utf8') => readFile(at(path), encoding)) as EnvFs['readFile'],
    rename: (from, to) => rename(at(from), at(to)),
    link: (existing, to) => link(at(existing), at(to)),
    unlink: (path) => unlink(at(path)),
    mkdir: async (path, options) => {
      await mkdir(at(path), options);
    },
    readdir: async (path) => (await readdir(at(path))).sort(),
    stat: (path) => stat(at(path)),
  };
  return {
    dir,
    fs,
    fetch: (input, init) => globalThis.fetch(input, init),
    clock: {
      now: async () => Date.now(),
      sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
      timeout: async (ms) => AbortSignal.timeout(ms),
    },
    store: options.store ?? missingStore(),
    random: async () => Math.random(),
    pid: options.pid ?? 0,
    incarnation: options.incarnation ?? 0,
  };
}
