/**
 * The served APIs that are no step (NOT_STEPS): constants of the simulated machine and process,
 * work on Node's thread pool (served, waited for, no step) and finalization registries.
 * A real process of `durasim confirm` counts none of them (src/confirm/countedWorld.ts), so the list
 * is held here to what the simulation does: each of them called, and not one step taken.
 */
import * as os from 'node:os';
import * as tty from 'node:tty';
import * as zlib from 'node:zlib';
import * as crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { simulate } from '../../simulate.js';
import { NOT_STEPS } from './serveCall.js';

/** Keys made outside any simulation (generating one is refused inside). */
const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
const signature = crypto.sign(null, Buffer.from('x'), privateKey);
const answered = (start: (callback: () => void) => unknown): Promise<void> => new Promise((resolve) => void start(() => resolve()));
const settled = (work: () => Promise<unknown>): Promise<void> => work().then(() => {}, () => {});
const hmac = { name: 'HMAC', hash: 'SHA-256' };
const aes = { name: 'AES-GCM', iv: new Uint8Array(12) };
const ZLIB = ['Deflate', 'Inflate', 'Gzip', 'Gunzip', 'DeflateRaw', 'InflateRaw', 'Unzip', 'BrotliCompress', 'BrotliDecompress'] as const;
const zlibAny = zlib as unknown as Record<string, (...args: unknown[]) => unknown>;
/** Every call served on the thread pool, each made once (what it answers does not matter: none is a step). */
const THREAD_POOL: [string, () => unknown][] = [
  ...ZLIB.map((name): [string, () => unknown] => [`zlib.${name}`, () => new (zlibAny[name] as unknown as new () => unknown)()]),
  ...ZLIB.map((name): [string, () => unknown] => [`zlib.create${name}`, () => zlibAny[`create${name}`]?.()]),
  ...['deflate', 'inflate', 'gzip', 'gunzip', 'deflateRaw', 'inflateRaw', 'unzip', 'brotliCompress', 'brotliDecompress'].map((name): [string, () => unknown] => [`zlib.${name}`, () => answered((done) => zlibAny[name]?.(Buffer.from('x'), done))]),
  ['crypto.pbkdf2', () => answered((done) => crypto.pbkdf2('p', 's', 1, 8, 'sha256', done))],
  ['crypto.scrypt', () => answered((done) => crypto.scrypt('p', 's', 8, done))],
  ['crypto.hkdf', () => answered((done) => crypto.hkdf('sha256', 'k', 's', 'i', 8, done))],
  ['crypto.checkPrime', () => answered((done) => crypto.checkPrime(Buffer.from([7]), done))],
  ['crypto.sign', () => answered((done) => crypto.sign(null, Buffer.from('x'), privateKey, done))],
  ['crypto.verify', () => answered((done) => crypto.verify(null, Buffer.from('x'), publicKey, signature, done))],
  ['crypto.subtle.importKey', () => settled(() => globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), hmac, true, ['sign', 'verify']))],
  ['crypto.subtle.exportKey', () => settled(async () => globalThis.crypto.subtle.exportKey('raw', await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), hmac, true, ['sign'])))],
  ['crypto.subtle.sign', () => settled(async () => globalThis.crypto.subtle.sign('HMAC', await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), hmac, false, ['sign']), new Uint8Array(1)))],
  ['crypto.subtle.verify', () => settled(async () => globalThis.crypto.subtle.verify('HMAC', await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), hmac, false, ['verify']), new Uint8Array(32), new Uint8Array(1)))],
  ['crypto.subtle.encrypt', () => settled(async () => globalThis.crypto.subtle.encrypt(aes, await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-GCM', false, ['encrypt']), new Uint8Array(1)))],
  ['crypto.subtle.decrypt', () => settled(async () => globalThis.crypto.subtle.decrypt(aes, await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-GCM', false, ['decrypt']), new Uint8Array(17)))],
  ['crypto.subtle.deriveBits', () => settled(async () => globalThis.crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(1), iterations: 1 }, await globalThis.crypto.subtle.importKey('raw', new Uint8Array(8), 'PBKDF2', false, ['deriveBits']), 64))],
  ['crypto.subtle.deriveKey', () => settled(async () => globalThis.crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(1), iterations: 1 }, await globalThis.crypto.subtle.importKey('raw', new Uint8Array(8), 'PBKDF2', false, ['deriveKey']), hmac, false, ['sign']))],
  ['crypto.subtle.wrapKey', () => settled(async () => globalThis.crypto.subtle.wrapKey('raw', await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), hmac, true, ['sign']), await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-KW', false, ['wrapKey']), 'AES-KW'))],
  ['crypto.subtle.unwrapKey', () => settled(async () => globalThis.crypto.subtle.unwrapKey('raw', new Uint8Array(24), await globalThis.crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-KW', false, ['unwrapKey']), 'AES-KW', hmac, false, ['sign']))],
];

/** node:worker_threads as a bundled journal requires it (an ES import's bindings are copies, taken outside any turn). */
const threads = createRequire(import.meta.url)('node:worker_threads') as Record<string, unknown>;

test('every served API that is no step takes none when a journal calls it', async () => {
  const calls: [string, () => unknown][] = [
    ...Object.keys(os).filter((name) => NOT_STEPS.has(`os.${name}`)).map((name): [string, () => unknown] => [`os.${name}`, () => (os as unknown as Record<string, () => unknown>)[name]?.()]),
    ['performance.timeOrigin', () => performance.timeOrigin],
    ['process.cpuUsage', () => process.cpuUsage()],
    ['process.resourceUsage', () => process.resourceUsage()],
    ['performance.getEntries', () => performance.getEntries()],
    ['performance.getEntriesByName', () => performance.getEntriesByName('x')],
    ['performance.getEntriesByType', () => performance.getEntriesByType('mark')],
    ['tty.isatty', () => tty.isatty(1)],
    ['FinalizationRegistry', () => new FinalizationRegistry(() => {})],
    ...THREAD_POOL.map(([api, call]): [string, () => unknown] => [api, call]),
    ...['getuid', 'geteuid', 'getgid', 'getegid', 'getgroups', 'umask'].map((name): [string, () => unknown] => [`process.${name}`, () => (process as unknown as Record<string, () => unknown>)[name]?.()]),
    ...['argv', 'execPath', 'execArgv'].map((name): [string, () => unknown] => [`process.${name}`, () => (process as unknown as Record<string, unknown>)[name]]),
    ...['isMainThread', 'threadId', 'parentPort', 'workerData', 'resourceLimits'].map((name): [string, () => unknown] => [`worker_threads.${name}`, () => threads[name]]),
  ];
  expect(new Set(calls.map(([api]) => api))).toEqual(NOT_STEPS);
  const journal: JournalAdapter = {
    name: 'asks-the-machine',
    async run(env) {
      for (const [, call] of calls) await call();
      await env.fs.readdir('.');
    },
    inspect: () => ({}),
  };
  const result = await simulate(journal, baseScenario([]));
  expect(result.escapes).toEqual([]);
  expect(result.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined).map((e) => e.op)).toEqual(['fs.readdir']);
});
