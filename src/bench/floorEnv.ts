/**
 * The journal floor: the plainest world a journal can run in, for the bench to measure the
 * simulator against. A `Map` of paths to bytes is the file system (no durability, no crash, no
 * Linux checks), a `Map` of keys to receipts is the service (one effect per key, replay for the
 * same digest, 409 for another), responses are plain objects, the clock stands still. Nothing of
 * durasim's is in it (a floor measured with our own machinery in it would measure that too): what
 * it costs is the journal's own code, per call.
 *
 * It serves the fault-free standard task exactly: the same calls, arguments and statuses the
 * simulated world gives that task (the bench checks the call count against the simulated trace).
 */
import { createHash } from 'node:crypto';
import type { Env, EnvFs, FileHandle, Stats } from '../../model/contract/contract.js';

interface Inode {
  data: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);

function fsError(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A plain response: what a journal reads off a fetch's answer (status, ok, headers, json, text). */
function plainResponse(status: number, body: string): Response {
  const headers = { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) };
  return { status, ok: status >= 200 && status < 300, headers, json: async () => JSON.parse(body) as unknown, text: async () => body } as unknown as Response;
}

export interface FloorEnv {
  env: Env;
  /** Calls the journal made through env (fs, file handles, fetch, clock, random). */
  readonly calls: number;
}

/** A floor env for one run: `files` relative to the work folder, `resources` served by GET /resources/:name. */
export function floorEnv(files: Readonly<Record<string, string>>, resources: Readonly<Record<string, string>>, serviceUrl: string): FloorEnv {
  const dir = '/work';
  const inodes = new Map<string, Inode>();
  const dirs = new Set<string>([dir]);
  for (const [path, text] of Object.entries(files)) inodes.set(`${dir}/${path}`, { data: encoder.encode(text) });
  const receipts = new Map<string, { digest: string; receipt: string }>();
  let effects = 0;
  let calls = 0;
  const at = (path: string): string => (path.startsWith('/') ? path : `${dir}/${path}`);
  const counted = <A extends unknown[], R>(run: (...args: A) => R): ((...args: A) => R) => (...args: A) => {
    calls++;
    return run(...args);
  };
  const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/')) || '/';

  const open = async (path: string, flags = 'r'): Promise<FileHandle> => {
    const abs = at(path);
    if (dirs.has(abs)) {
      // A folder's handle: its fsync makes entries durable on a real disk; here there is nothing to do.
      return { sync: counted(async () => {}), close: counted(async () => {}), appendFile: async () => {}, writeFile: async () => {}, readFile: async () => new Uint8Array() } as unknown as FileHandle;
    }
    let inode = inodes.get(abs);
    if (inode === undefined) {
      if (flags.startsWith('r')) throw fsError('ENOENT', 'open', abs);
      if (!dirs.has(parentOf(abs))) throw fsError('ENOENT', 'open', abs);
      inode = { data: new Uint8Array() };
      inodes.set(abs, inode);
    } else if (flags.includes('x')) throw fsError('EEXIST', 'open', abs);
    else if (flags.startsWith('w')) inode.data = new Uint8Array();
    const file = inode;
    let position = 0;
    const write = async (data: string | Uint8Array): Promise<void> => {
      calls++;
      const bytes = bytesOf(data);
      if (flags.startsWith('a') || position === file.data.length) file.data = join(file.data, bytes);
      else {
        const grown = new Uint8Array(Math.max(file.data.length, position + bytes.length));
        grown.set(file.data);
        grown.set(bytes, position);
        file.data = grown;
      }
      position = flags.startsWith('a') ? file.data.length : position + bytes.length;
    };
    const readFile = (async (options?: 'utf8' | { encoding?: 'utf8' | null }) => {
      calls++;
      const bytes = file.data.subarray(Math.min(position, file.data.length));
      position = file.data.length;
      return options === 'utf8' || (typeof options === 'object' && options?.encoding === 'utf8') ? decoder.decode(bytes) : bytes.slice();
    }) as FileHandle['readFile'];
    return { appendFile: write, writeFile: write, readFile, sync: counted(async () => {}), close: counted(async () => {}) };
  };

  const fs: EnvFs = {
    open: counted(open),
    appendFile: counted(async (path, data) => {
      const abs = at(path);
      const inode = inodes.get(abs);
      if (inode) inode.data = join(inode.data, bytesOf(data));
      else inodes.set(abs, { data: bytesOf(data).slice() });
    }),
    writeFile: counted(async (path, data, options) => {
      const abs = at(path);
      if (options?.flag === 'wx' && inodes.has(abs)) throw fsError('EEXIST', 'open', abs);
      inodes.set(abs, { data: bytesOf(data).slice() });
    }),
    readFile: counted(async (path: string, encoding?: 'utf8') => {
      const inode = inodes.get(at(path));
      if (inode === undefined) throw fsError('ENOENT', 'open', at(path));
      return encoding === 'utf8' ? decoder.decode(inode.data) : inode.data.slice();
    }) as EnvFs['readFile'],
    rename: counted(async (from, to) => {
      const inode = inodes.get(at(from));
      if (inode === undefined) throw fsError('ENOENT', 'rename', at(from));
      inodes.delete(at(from));
      inodes.set(at(to), inode);
    }),
    link: counted(async (existing, to) => {
      const inode = inodes.get(at(existing));
      if (inode === undefined) throw fsError('ENOENT', 'link', at(existing));
      if (inodes.has(at(to))) throw fsError('EEXIST', 'link', at(to));
      inodes.set(at(to), inode);
    }),
    unlink: counted(async (path) => {
      if (!inodes.delete(at(path))) throw fsError('ENOENT', 'unlink', at(path));
    }),
    mkdir: counted(async (path, options) => {
      const abs = at(path);
      if (dirs.has(abs) && !options?.recursive) throw fsError('EEXIST', 'mkdir', abs);
      dirs.add(abs);
    }),
    readdir: counted(async (path) => {
      const prefix = `${at(path)}/`;
      const names = new Set<string>();
      for (const name of [...inodes.keys(), ...dirs]) if (name.startsWith(prefix)) names.add(name.slice(prefix.length).split('/')[0] as string);
      return [...names].sort();
    }),
    stat: counted(async (path): Promise<Stats> => {
      const abs = at(path);
      if (dirs.has(abs)) return { size: 0, isFile: () => false, isDirectory: () => true };
      const inode = inodes.get(abs);
      if (inode === undefined) throw fsError('ENOENT', 'stat', abs);
      return { size: inode.data.length, isFile: () => true, isDirectory: () => false };
    }),
  };

  const fetch = counted(async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.startsWith(serviceUrl) ? url.slice(serviceUrl.length) : url;
    const [, kind, id = ''] = path.split('/');
    const key = decodeURIComponent(id);
    if (kind === 'operations' && method === 'POST') {
      const digest = createHash('sha256').update(typeof init?.body === 'string' ? init.body : '').digest('hex');
      const stored = receipts.get(key);
      if (stored && stored.digest !== digest) return plainResponse(409, JSON.stringify({ error: 'fingerprint_conflict' }));
      if (stored) return plainResponse(200, JSON.stringify({ key, digest, state: 'committed', receipt: stored.receipt }));
      const receipt = `rcpt-${key}-${++effects}`;
      receipts.set(key, { digest, receipt });
      return plainResponse(201, JSON.stringify({ key, digest, state: 'committed', receipt }));
    }
    if (kind === 'operations') {
      const stored = receipts.get(key);
      return stored ? plainResponse(200, JSON.stringify({ key, digest: stored.digest, state: 'committed', receipt: stored.receipt })) : plainResponse(404, JSON.stringify({ error: 'not_found' }));
    }
    const value = resources[key];
    return value === undefined ? plainResponse(404, JSON.stringify({ error: 'not_found' })) : plainResponse(200, JSON.stringify({ resource: key, value }));
  });

  const never = new AbortController().signal;
  const env: Env = {
    dir,
    fs,
    fetch,
    clock: { now: counted(async () => 0), sleep: counted(async () => {}), timeout: counted(async () => never) },
    store: new Proxy({}, { get: () => { throw new Error('the journal floor serves no store: it runs the standard task, which needs none'); } }) as Env['store'],
    random: counted(async () => 0),
    pid: 0,
    incarnation: 0,
  };
  return {
    env,
    get calls() {
      return calls;
    },
  };
}
