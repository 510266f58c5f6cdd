/**
 * Node's modules that reach outside the simulated world, guarded whole: every function and class
 * they export (not a hand-kept list of calls), and the function-valued members of their
 * sub-objects (fs.promises, dns.promises, timers/promises' scheduler). Guarded once per thread,
 * forever, and before any journal module is evaluated, so references a journal captures at import
 * time are the guarded ones. Outside a journal's turn every call passes straight through.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { guardProperty } from './guardFunction.js';
import { cancelsServed } from './guardGlobals.js';

interface ModuleGuard {
  /** The builtin, as require() names it. */
  module: string;
  /** Only these exports (default: every function). */
  only?: readonly string[];
  /** Every function but these (pure helpers that read nothing of the world). */
  except?: readonly string[];
  /** Sub-objects whose functions are guarded too. */
  nested?: readonly string[];
}

const RANDOM = [
  'randomBytes', 'randomFill', 'randomFillSync', 'randomInt', 'randomUUID', 'getRandomValues', 'pseudoRandomBytes', 'prng', 'rng', // allow-ambient: names what it guards
  'generateKey', 'generateKeySync', 'generateKeyPair', 'generateKeyPairSync', 'generatePrime', 'generatePrimeSync', 'createDiffieHellman', 'createECDH',
];

/** crypto's calls that run on Node's thread pool: served at once (node/served/servedCrypto.ts), their answer a callback later. */
export const CRYPTO_THREAD_POOL = ['pbkdf2', 'scrypt', 'hkdf', 'checkPrime', 'sign', 'verify'];
/** zlib's synchronous calls and checksum: pure (every other function, class and stream is served: node/served/servedZlib.ts). */
const ZLIB_PURE = ['deflateSync', 'inflateSync', 'gzipSync', 'gunzipSync', 'deflateRawSync', 'inflateRawSync', 'unzipSync', 'brotliCompressSync', 'brotliDecompressSync', 'crc32'];

export const MODULE_GUARDS: readonly ModuleGuard[] = [
  { module: 'fs', nested: ['promises'] },
  { module: 'fs/promises' },
  { module: 'child_process' },
  { module: 'cluster' },
  { module: 'worker_threads', only: ['Worker', 'BroadcastChannel', 'MessageChannel', 'setEnvironmentData'] },
  { module: 'dns', nested: ['promises'] },
  { module: 'dns/promises' },
  { module: 'net', except: ['isIP', 'isIPv4', 'isIPv6', 'BlockList', 'SocketAddress'] },
  { module: 'tls', except: ['checkServerIdentity', 'getCiphers'] },
  { module: 'http', except: ['validateHeaderName', 'validateHeaderValue'] },
  { module: 'https' },
  { module: 'http2', except: ['getDefaultSettings', 'getPackedSettings', 'getUnpackedSettings'] },
  { module: 'dgram' },
  { module: 'os' },
  { module: 'timers', only: ['setTimeout', 'setInterval', 'setImmediate'] }, // allow-ambient: names what it guards
  { module: 'timers/promises', nested: ['scheduler'] },
  { module: 'perf_hooks', only: ['monitorEventLoopDelay', 'PerformanceObserver', 'createHistogram'] },
  { module: 'vm' },
  { module: 'inspector' },
  // promiseHooks: a hook installed for the thread's life, called by every later promise (a journal's memory, and its code outside its turn).
  { module: 'v8', nested: ['promiseHooks'], only: ['getHeapStatistics', 'getHeapSpaceStatistics', 'getHeapSnapshot', 'writeHeapSnapshot', 'getHeapCodeStatistics', 'setFlagsFromString', 'takeCoverage', 'stopCoverage', 'setHeapSnapshotNearHeapLimit', 'queryObjects'] },
  { module: 'crypto', only: [...RANDOM, ...CRYPTO_THREAD_POOL] },
  { module: 'zlib', except: ZLIB_PURE },
  { module: 'stream/web', only: ['CompressionStream', 'DecompressionStream'] },
  // Callbacks Node would call from no turn (every async resource's life), or code run outside the sandbox.
  { module: 'async_hooks', only: ['createHook'] },
  // A setting Node keeps for the whole thread, which no property shows and no restart would undo.
  { module: 'stream', only: ['setDefaultHighWaterMark'] },
  { module: 'module', only: ['register', 'registerHooks', 'syncBuiltinESMExports'] },
  { module: 'wasi' },
  { module: 'repl' },
  { module: 'inspector/promises' },
  { module: 'trace_events' },
  { module: 'tty' },
  { module: 'test' },
  { module: 'test/reporters' },
  // Node 22.5+: a SQLite database, served on the simulated disk (DatabaseSync; node/served/servedSqlite.ts); the single-executable's assets (Node 24's list names both).
  { module: 'sqlite' },
  { module: 'sea' },
  // The network underneath http, https and tls, by its own names.
  { module: '_http_agent' },
  { module: '_http_client' },
  { module: '_http_server' },
  { module: '_tls_wrap' },
];

let installed = false;

/** Loads a module without the warning Node prints for an experimental one (node:wasi): it is loaded to be guarded, not used. */
function quietly<T>(run: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    return run();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Guards one module of MODULE_GUARDS as its spec says (a function already guarded is left as it is); how many functions it guarded. */
function guardSpec(spec: ModuleGuard): number {
  let count = 0;
  const guardObject = (target: object, prefix: string, spec: ModuleGuard): void => {
    for (const name of Object.keys(target)) {
      if (spec.only && !spec.only.includes(name)) continue;
      if (spec.except?.includes(name)) continue;
      if (guardProperty(target, name, `${prefix}.${name}`)) count++;
    }
  };
  let module: Record<string, unknown>;
  try {
    module = quietly(() => createRequire(import.meta.url)(`node:${spec.module}`)) as Record<string, unknown>; // allow-ambient: loaded to be guarded
  } catch {
    return 0; // not in this Node version
  }
  const prefix = spec.module.replaceAll('/', '.');
  guardObject(module, prefix, spec);
  for (const name of spec.nested ?? []) {
    const inner = module[name];
    if (typeof inner === 'object' && inner !== null) guardObject(inner, `${prefix}.${name}`, { module: spec.module });
  }
  return count;
}

/**
 * Guards only `module` (one of MODULE_GUARDS) in this thread: a thread that runs no journal but
 * serves one of its calls in a turn — confirm's inspect() in the confirming process, whose
 * `new DatabaseSync()` of node:sqlite is served on the image it reads (src/confirm/realInspection.ts).
 * Outside a turn its calls pass straight through. Returns how many functions were guarded.
 */
export function guardModule(module: string): number {
  const spec = MODULE_GUARDS.find((s) => s.module === module);
  if (spec === undefined) throw new Error(`no module guard for node:${module}`);
  const count = guardSpec(spec);
  syncBuiltinESMExports();
  return count;
}

/** Guards every module of MODULE_GUARDS in this thread (idempotent). Returns how many functions were guarded. */
export function guardModules(): number {
  if (installed) return 0;
  installed = true;
  const load = createRequire(import.meta.url);
  let count = 0;
  for (const spec of MODULE_GUARDS) count += guardSpec(spec);
  // clearTimeout and friends of node:timers cancel a served timer, and pass anything else through.
  const timers = load('node:timers') as Record<string, unknown>; // allow-ambient: patched, not called
  for (const name of ['clearTimeout', 'clearInterval', 'clearImmediate']) {
    const real = timers[name];
    if (typeof real === 'function') timers[name] = cancelsServed(real as (handle?: unknown) => void);
  }
  syncBuiltinESMExports();
  return count;
}
