/**
 * Ambient guard: catches a journal that reaches around `env` for real time, randomness, timers
 * or the network while it runs under simulation.
 *
 * Rules:
 * - While a simulation runs, the global fetch, Date.now, performance.now, Math.random, timers, (allow-ambient: names what it guards)
 *   AbortSignal.timeout and crypto.randomUUID are wrapped. A call made while journal code holds (allow-ambient: names what it guards)
 *   the turn (between the scheduler resuming it and its next env call) is recorded as an escape
 *   and refused with an error that names the env replacement. Calls made by the simulator's own
 *   machinery (msw, streams) pass through.
 * - Real disk and network modules are wrapped once per process and stay wrapped, inert outside a
 *   journal's turn (see guardRealIo).
 * - Wrapping is reference-counted, so nested or sequential simulations share one installation.
 *   Simulations must not run interleaved on one thread: an escape could be charged to the wrong one.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { DurasimError } from '../src/failure.js';

export interface Escape {
  api: string;
  pid: number;
  incarnation: number;
  message: string;
}

interface Holder {
  onEscape(api: string): Escape;
}

const REPLACEMENTS: Record<string, string> = {
  fetch: 'Call env.fetch(url, init) instead: under simulation the only network is the fake service.',
  'Date.now': 'Use await env.clock.now() instead.', // allow-ambient: the guard names what it wraps
  'performance.now': 'Use await env.clock.now() instead.', // allow-ambient: the guard names what it wraps
  'Math.random': 'Use await env.random() instead.', // allow-ambient: the guard names what it wraps
  setTimeout: 'Use await env.clock.sleep(ms), or env.clock.timeout(ms) for an AbortSignal.', // allow-ambient: the guard names what it wraps
  setInterval: 'Use a loop around await env.clock.sleep(ms).', // allow-ambient: the guard names what it wraps
  setImmediate: 'Await an env call instead of waiting on the event loop.', // allow-ambient: the guard names what it wraps
  'AbortSignal.timeout': 'Use await env.clock.timeout(ms) instead.',
  'crypto.randomUUID': 'Derive ids from the task and operation keys, or from await env.random().', // allow-ambient: the guard names what it wraps
};

let installs = 0;
let holder: Holder | null = null;
const originals: { target: object; name: string; value: unknown }[] = [];

/** Marks who holds the turn: a journal process (escapes are charged to it) or nobody. */
export function setTurn(next: Holder | null): void {
  holder = next;
}

function wrap(target: object, name: string, api: string): void {
  const record = target as Record<string, unknown>;
  const original = record[name];
  if (typeof original !== 'function') return;
  originals.push({ target, name, value: original });
  record[name] = function guarded(this: unknown, ...args: unknown[]) {
    if (holder !== null) {
      const escape = holder.onEscape(api);
      throw new DurasimError('run the journal under simulation', escape.message, REPLACEMENTS[api] ?? 'Go through env.');
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
}

export function escapeReason(api: string): string {
  if (api === 'fetch') return 'it called the global fetch, which would reach the real network';
  if (api.startsWith('fs.')) return `it called ${api}, which touches the real disk`;
  if (/^(http|https|net)\./.test(api)) return `it called ${api}, which would reach the real network`;
  return `it called ${api}, which is outside the simulated world`;
}

const FS_CALLS = ['readFile', 'writeFile', 'appendFile', 'open', 'rename', 'unlink', 'mkdir', 'readdir', 'stat', 'lstat', 'link', 'rm', 'copyFile', 'access'];
const FS_SYNC_CALLS = [...FS_CALLS.map((name) => `${name}Sync`), 'existsSync', 'fsyncSync', 'writeSync', 'readSync', 'createReadStream', 'createWriteStream'];
let realIoGuarded = false;

/**
 * Real disk and network modules (node:fs, node:fs/promises, node:http, node:https, node:net) are
 * wrapped once per process, the first time a simulation runs, and stay wrapped: outside a
 * journal's turn the wrappers pass every call straight through. ESM imports of these builtins see
 * the wrappers too (syncBuiltinESMExports).
 */
function guardRealIo(): void {
  if (realIoGuarded) return;
  realIoGuarded = true;
  const load = createRequire(import.meta.url);
  const fs = load('node:fs') as Record<string, unknown>; // allow-ambient: wrapped so a journal's real disk access is caught
  for (const name of [...FS_CALLS, ...FS_SYNC_CALLS]) wrapForever(fs, name, `fs.${name}`);
  for (const name of FS_CALLS) wrapForever(fs.promises as object, name, `fs.promises.${name}`);
  for (const module of ['http', 'https'] as const) for (const name of ['request', 'get']) wrapForever(load(`node:${module}`) as object, name, `${module}.${name}`);
  for (const name of ['connect', 'createConnection']) wrapForever(load('node:net') as object, name, `net.${name}`);
  syncBuiltinESMExports();
}

function wrapForever(target: object, name: string, api: string): void {
  const record = target as Record<string, unknown>;
  const original = record[name];
  if (typeof original !== 'function') return;
  record[name] = Object.assign(function guarded(this: unknown, ...args: unknown[]) {
    if (holder !== null) {
      const escape = holder.onEscape(api);
      throw new DurasimError('run the journal under simulation', escape.message, api.startsWith('fs.') ? 'Use env.fs instead: under simulation the disk is virtual and crash-consistent.' : 'Call env.fetch(url, init) instead: under simulation the only network is the fake service.');
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  }, original);
}

/**
 * memfs asks the OS for the uid and gid on every file operation (a syscall each, about a quarter
 * of a simulation's time). They cannot change while we run, so they are answered from a cache.
 */
function cacheIdentity(): void {
  for (const name of ['getuid', 'getgid'] as const) {
    const original = process[name];
    if (typeof original !== 'function') continue;
    const value = original.call(process);
    originals.push({ target: process, name, value: original });
    (process as unknown as Record<string, unknown>)[name] = () => value;
  }
}

export function installAmbientGuard(): void {
  installs++;
  if (installs > 1) return;
  guardRealIo();
  cacheIdentity();
  const g = globalThis as unknown as Record<string, object>;
  wrap(globalThis, 'fetch', 'fetch');
  wrap(Date, 'now', 'Date.now'); // allow-ambient: the guard names what it wraps
  if (g.performance) wrap(g.performance, 'now', 'performance.now'); // allow-ambient: the guard names what it wraps
  wrap(Math, 'random', 'Math.random'); // allow-ambient: the guard names what it wraps
  wrap(globalThis, 'setTimeout', 'setTimeout'); // allow-ambient: the guard names what it wraps
  wrap(globalThis, 'setInterval', 'setInterval'); // allow-ambient: the guard names what it wraps
  wrap(globalThis, 'setImmediate', 'setImmediate'); // allow-ambient: the guard names what it wraps
  wrap(AbortSignal, 'timeout', 'AbortSignal.timeout');
  if (g.crypto) wrap(g.crypto, 'randomUUID', 'crypto.randomUUID'); // allow-ambient: the guard names what it wraps
}

export function uninstallAmbientGuard(): void {
  installs--;
  if (installs > 0) return;
  installs = 0;
  holder = null;
  while (originals.length > 0) {
    const { target, name, value } = originals.pop() as { target: object; name: string; value: unknown };
    (target as Record<string, unknown>)[name] = value;
  }
}
