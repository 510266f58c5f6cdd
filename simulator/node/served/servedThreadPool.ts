/**
 * What a journal runs on Node's thread pool, at a deterministic point. zlib's compression, crypto's
 * key derivations, primality checks and one-shot signatures given a callback, and every operation of
 * crypto.subtle complete on worker threads at a real time; a journal awaiting one while a served
 * timer waits got whichever came first, and the verdict with it. Rules:
 * - The work is Node's own, started in the caller's turn (so its callback or promise answers as the
 *   process's code), and the world waits for it (world/turns.ts): no step is granted, no clock
 *   moves, nothing is stopped as stalled until it is done. Its answer lands at the same point every
 *   run. It is no step: the trace shows nothing of it.
 * - zlib's streams (its classes and create* functions): each chunk's compression is such work.
 * - What is synchronous stays as Node has it (the *Sync calls, crc32, a sign or verify without a
 *   callback, hashes and ciphers).
 */
import { createRequire } from 'node:module';
import { asCaller, type Served, type ServeContext } from './serveContext.js';

type AnyFunction = (...args: unknown[]) => unknown;

/** zlib and crypto as they were before the sandbox guarded them (this module loads before it does). */
const load = createRequire(import.meta.url);
const zlib = load('node:zlib') as Record<string, AnyFunction>; // allow-ambient: the real calls the world makes for the journal
const crypto = load('node:crypto') as Record<string, AnyFunction> & { webcrypto: { subtle: Record<string, AnyFunction> } }; // allow-ambient: the real calls the world makes for the journal
const real = (module: Record<string, AnyFunction>, names: readonly string[]): Map<string, AnyFunction> => new Map(names.map((name) => [name, module[name] as AnyFunction]));

const ZLIB_CALLS = ['deflate', 'inflate', 'gzip', 'gunzip', 'deflateRaw', 'inflateRaw', 'unzip', 'brotliCompress', 'brotliDecompress'];
const ZLIB_STREAMS = ['Deflate', 'Inflate', 'Gzip', 'Gunzip', 'DeflateRaw', 'InflateRaw', 'Unzip', 'BrotliCompress', 'BrotliDecompress'];
const CRYPTO_CALLS = ['pbkdf2', 'scrypt', 'hkdf', 'checkPrime', 'sign', 'verify'];
const SUBTLE_CALLS = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveBits', 'deriveKey', 'wrapKey', 'unwrapKey', 'importKey', 'exportKey'];

const zlibCalls = real(zlib, ZLIB_CALLS);
const zlibClasses = real(zlib, ZLIB_STREAMS);
const cryptoCalls = real(crypto, CRYPTO_CALLS);
const subtle = crypto.webcrypto.subtle;
const subtleCalls = new Map(SUBTLE_CALLS.map((name) => [name, (subtle[name] as AnyFunction).bind(subtle)]));

/** A callback-style call: Node's own, in the caller's turn, the world waiting until its callback has been called. Without a callback, Node's own at once. */
function withCallback(call: AnyFunction): Served {
  return (ctx, args) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return asCaller(ctx, () => call(...args));
    const done = ctx.world.turns.startOutside();
    const answered = (...answer: unknown[]): unknown => {
      done();
      return (callback as AnyFunction)(...answer);
    };
    try {
      return asCaller(ctx, () => call(...args.slice(0, last), answered));
    } catch (error) {
      done();
      throw error;
    }
  };
}

/** A promise-returning call (crypto.subtle): Node's own, in the caller's turn, the world waiting until it settles. */
function promised(call: AnyFunction): Served {
  return (ctx, args) => {
    const done = ctx.world.turns.startOutside();
    try {
      const work = asCaller(ctx, () => call(...args)) as Promise<unknown>;
      void Promise.resolve(work).then(done, done);
      return work;
    } catch (error) {
      done();
      throw error;
    }
  };
}

interface ZlibStream {
  _transform(chunk: unknown, encoding: unknown, callback: AnyFunction): void;
  once(event: string, listener: () => void): unknown;
}

/** A zlib stream whose every chunk is work the world waits for (see the rules). */
function waited(ctx: ServeContext, stream: ZlibStream): ZlibStream {
  const transform = stream._transform;
  const pending = new Set<() => void>();
  stream._transform = function (this: ZlibStream, chunk, encoding, callback) {
    const done = ctx.world.turns.startOutside();
    pending.add(done);
    transform.call(this, chunk, encoding, (...answer: unknown[]) => {
      pending.delete(done);
      done();
      return callback(...answer);
    });
  };
  // A stream destroyed with a chunk under way may never answer it: the world stops waiting then.
  stream.once('close', () => {
    for (const done of pending) done();
    pending.clear();
  });
  return stream;
}

type Construct = new (...args: unknown[]) => unknown;

/** zlib's stream classes and create* functions: Node's own stream, made in the caller's turn, every chunk waited for. */
function zlibStream(make: (args: readonly unknown[], newTarget: unknown) => unknown): Served {
  return (ctx, args, _thisArg, newTarget) => {
    const stream = asCaller(ctx, () => make(args, newTarget)) as ZlibStream;
    return waited(ctx, stream);
  };
}

const zlibClass = (name: string): Construct => zlibClasses.get(name) as unknown as Construct;

export const THREAD_POOL_SERVED: [string, Served][] = [
  ...ZLIB_CALLS.map((name): [string, Served] => [`zlib.${name}`, withCallback(zlibCalls.get(name) as AnyFunction)]),
  ...ZLIB_STREAMS.map((name): [string, Served] => [`zlib.${name}`, zlibStream((args, newTarget) => Reflect.construct(zlibClass(name), args, (newTarget ?? zlibClass(name)) as Construct))]),
  ...ZLIB_STREAMS.map((name): [string, Served] => [`zlib.create${name}`, zlibStream((args) => Reflect.construct(zlibClass(name), args))]),
  ...CRYPTO_CALLS.map((name): [string, Served] => [`crypto.${name}`, withCallback(cryptoCalls.get(name) as AnyFunction)]),
  ...SUBTLE_CALLS.map((name): [string, Served] => [`crypto.subtle.${name}`, promised(subtleCalls.get(name) as AnyFunction)]),
];
