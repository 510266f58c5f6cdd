/**
 * Why each guarded API is outside the simulated world, and what a journal calls instead. One
 * table, by family, so every escape message reads the same way:
 * `Failed to run the journal under simulation: it called <api>, which <reason>. <fix>`.
 */

type Family = 'warning' | 'clock' | 'random' | 'timer' | 'disk' | 'network' | 'process' | 'machine' | 'code' | 'signal' | 'pool' | 'shared' | 'thread';

const REASONS: Record<Family, string> = {
  warning: "Node's own code calls for its warnings, each given once a thread and never again after a restart",
  clock: 'reads the real clock',
  random: 'draws real randomness',
  timer: 'waits on real time',
  disk: "is not served by durasim's simulated disk",
  network: 'would reach the real network',
  process: 'starts work outside the simulated process, where crashes cannot reach it',
  machine: 'reads the real machine, which differs from run to run',
  code: 'runs code outside the sandbox',
  signal: 'acts on real processes',
  pool: "finishes on Node's thread pool at a real time",
  shared: 'would pin an object every simulated process shares (process, a builtin module, a prototype) where no restart could undo it',
  thread: "would reach the thread or the channel durasim itself runs on, which no simulated process has",
};

const FIXES: Record<Family, string> = {
  warning: 'Leave process.emitWarning as it is, and log with console.warn: under simulation no warning is shown.',
  clock: 'Use Date.now() or performance.now(), which durasim serves on the virtual clock, or await env.clock.now().', // allow-ambient: names what it serves
  random: 'Use crypto.randomBytes, crypto.randomUUID or Math.random, which durasim serves from the scenario, or await env.random().', // allow-ambient: names what it serves
  timer: 'Use setTimeout or timers/promises setTimeout, which durasim serves on the virtual clock, or await env.clock.sleep(ms).', // allow-ambient: names what it serves
  disk: 'Use the node:fs calls durasim serves on its virtual, crash-consistent disk (docs/adapters.md lists them), or env.fs.',
  network: 'Call fetch(url, init) or env.fetch(url, init): under simulation the only network is the fake service.',
  process: 'Do the work inside the journal: under simulation a worker is one process.',
  machine: 'Do not branch on the machine: under simulation it is not part of the world.',
  code: 'Run the code in the journal itself, where the sandbox sees it.',
  signal: 'Let the scenario start and kill processes: under simulation crashes are faults it places.',
  pool: "Use its synchronous form (zlib's gzipSync, crypto's pbkdf2Sync…), which runs at once.",
  shared: 'Freeze or seal objects of your own: under simulation one thread serves every incarnation, and each must start as a new process does.',
  thread: 'Talk over a MessageChannel of your own, which durasim serves inside the simulated process, and let uncaught errors end the process as they would.',
};

/** Fixes worded for a kind of API (by the start of its name), where the family's wording would mislead. */
const FIXES_BY_PREFIX: [string, string][] = [
  ['fs.symlink', "Write the file under its own name, or link it with fs.link: durasim's disk models files, folders and hard links, not symbolic links."],
  ['fs.promises.symlink', "Write the file under its own name, or link it with fs.link: durasim's disk models files, folders and hard links, not symbolic links."],
  ['fs.watch', 'Poll with fs.stat or fs.readdir on a timer: file watchers are not served (nothing in the simulated world would wake them).'],
  ['fs.unwatchFile', 'Poll with fs.stat or fs.readdir on a timer: file watchers are not served (nothing in the simulated world would wake them).'],
  ['fs.promises.watch', 'Poll with fs.stat or fs.readdir on a timer: file watchers are not served (nothing in the simulated world would wake them).'],
];

/** Fixes worded for one API, where the family's wording would mislead. */
const SPECIFIC_FIXES: Record<string, string> = {
  'timers.promises.setInterval': 'Use a loop around await setTimeout(ms) from timers/promises, which durasim serves on the virtual clock.', // allow-ambient: names what it serves
  'crypto.subtle.generateKey': 'Derive keys from bytes of crypto.randomBytes, which durasim serves from the scenario.',
  'async_hooks.createHook': "Carry context with AsyncLocalStorage, which works as Node's: an async hook runs for every asynchronous resource in the thread, durasim's own among them, where no simulated process holds the turn.",
  'module.register': 'Import what the hook would load instead: durasim bundles the journal and what it imports, and module hooks run on a thread of their own, outside the sandbox.',
  'module.registerHooks': 'Import what the hook would load instead: durasim bundles the journal and what it imports, and module hooks run outside the sandbox.',
  'module.syncBuiltinESMExports': "Leave Node's builtin modules as they are: their ES module exports are durasim's too.",
  'worker_threads.markAsUntransferable': 'Mark buffers and objects of your own: under simulation one thread serves every incarnation, and each must start as a new process does.',
  'worker_threads.markAsUncloneable': 'Mark objects of your own: under simulation one thread serves every incarnation, and each must start as a new process does.',
  'process.setUncaughtExceptionCaptureCallback': "Listen with process.on('uncaughtException'), which every simulated process has of its own.",
  CompressionStream: "Compress with zlib's streams (createGzip, createDeflate…), which durasim serves at the same point every run.",
  DecompressionStream: "Decompress with zlib's streams (createGunzip, createInflate…), which durasim serves at the same point every run.",
  'stream.web.CompressionStream': "Compress with zlib's streams (createGzip, createDeflate…), which durasim serves at the same point every run.",
  'stream.web.DecompressionStream': "Decompress with zlib's streams (createGunzip, createInflate…), which durasim serves at the same point every run.",
  'wasi.WASI': 'Instantiate the WebAssembly module with imports of your own (WebAssembly.instantiate): WASI reaches the real file system through its pre-opened folders.',
};

const PREFIXES: [string, Family][] = [
  // The more particular first: the first prefix that matches decides.
  ['MessagePort.', 'thread'],
  ['worker_threads.receiveMessageOnPort', 'thread'],
  ['worker_threads.moveMessagePortToContext', 'thread'],
  ['worker_threads.postMessageToThread', 'thread'],
  ['process.send', 'thread'],
  ['process.disconnect', 'thread'],
  ['process.emitWarning', 'warning'],
  ['process.emit', 'thread'],
  ['process.setUncaughtExceptionCaptureCallback', 'thread'],
  ['process.setSourceMapsEnabled', 'thread'],
  ['process._debug', 'signal'],
  ['process._getActive', 'machine'],
  ['process.loadEnvFile', 'disk'],
  ['worker_threads.markAs', 'shared'],
  ['Object.freeze', 'shared'],
  ['Object.seal', 'shared'],
  ['Object.preventExtensions', 'shared'],
  ['Reflect.preventExtensions', 'shared'],
  ['fs.', 'disk'],
  ['fetch', 'network'],
  ['http.', 'network'],
  ['https.', 'network'],
  ['http2.', 'network'],
  ['net.', 'network'],
  ['tls.', 'network'],
  ['dgram.', 'network'],
  ['dns.', 'network'],
  ['_http', 'network'],
  ['_tls', 'network'],
  ['WebSocket', 'network'],
  ['child_process.', 'process'],
  ['worker_threads.', 'process'],
  ['cluster.', 'process'],
  ['test.', 'process'],
  ['Date', 'clock'],
  ['new Date', 'clock'],
  ['performance.', 'clock'],
  ['perf_hooks.', 'clock'],
  ['process.hrtime', 'clock'],
  ['process.uptime', 'clock'],
  ['Intl.', 'clock'],
  ['Math.random', 'random'], // allow-ambient: names what it guards
  ['zlib.', 'pool'],
  ['crypto.pbkdf2', 'pool'],
  ['crypto.scrypt', 'pool'],
  ['crypto.hkdf', 'pool'],
  ['crypto.checkPrime', 'pool'],
  ['crypto.sign', 'pool'],
  ['crypto.verify', 'pool'],
  ['crypto.subtle.generateKey', 'random'],
  ['crypto.subtle.', 'pool'],
  ['CompressionStream', 'pool'],
  ['DecompressionStream', 'pool'],
  ['stream.web.', 'pool'],
  ['crypto.', 'random'],
  ['set', 'timer'],
  ['AbortSignal.timeout', 'timer'],
  ['timers', 'timer'],
  ['os.', 'machine'],
  ['v8.', 'machine'],
  ['tty.', 'machine'],
  ['process.memoryUsage', 'machine'],
  ['process.cpuUsage', 'machine'],
  ['process.resourceUsage', 'machine'],
  ['process.report', 'machine'],
  ['process.constrainedMemory', 'machine'],
  ['process.availableMemory', 'machine'],
  ['process.getActiveResourcesInfo', 'machine'],
  ['process.kill', 'signal'],
  ['process.abort', 'signal'],
  ['process.reallyExit', 'signal'],
  ['process._kill', 'signal'],
  ['process.chdir', 'signal'],
  ['process.set', 'signal'],
  ['process.init', 'signal'],
  ['vm.', 'code'],
  ['inspector.', 'code'],
  ['module.', 'code'],
  ['async_hooks.', 'code'],
  ['trace_events.', 'disk'],
  ['repl.', 'code'],
  ['wasi.', 'code'],
  ['process.binding', 'code'],
  ['process._linkedBinding', 'code'],
  ['process.dlopen', 'code'],
];

function familyOf(api: string): Family {
  for (const [prefix, family] of PREFIXES) if (api.startsWith(prefix)) return family;
  return 'code';
}

/** How a change to a builtin is named (sandbox/lockIntrinsics.ts): "replacing Array.prototype.push". */
const BUILTIN_CHANGES = ['replacing ', 'redefining ', 'adding ', 'changing the prototype of '];
const isBuiltinChange = (api: string): boolean => BUILTIN_CHANGES.some((verb) => api.startsWith(verb));

/** Why a call is refused; `atLoad`: it was made while the journal's module loaded, before any simulated world exists. */
export function escapeReason(api: string, atLoad = false): string {
  if (isBuiltinChange(api)) return `it tried ${api}, a builtin durasim's own code runs on (the simulator shares the journal's builtins)`;
  if (api === 'fetch') return 'it called the global fetch, which would reach the real network';
  if (api.startsWith('import(')) return `it called ${api}, which durasim could not bundle to load afresh in every incarnation`;
  if (atLoad && familyOf(api) === 'disk') return `it called ${api} while its module loaded, which would touch the real disk: the simulated disk exists only inside run()`;
  return `it called ${api}, which ${REASONS[familyOf(api)]}`;
}

export function escapeFix(api: string, atLoad = false): string {
  if (isBuiltinChange(api)) return "Leave JavaScript's and Node's builtins as they are: a polyfill may add what Node lacks, not replace what it has.";
  if (atLoad && familyOf(api) === 'disk') return 'Do file I/O inside run(), where durasim serves node:fs on its simulated disk.';
  return SPECIFIC_FIXES[api] ?? FIXES_BY_PREFIX.find(([prefix]) => api.startsWith(prefix))?.[1] ?? FIXES[familyOf(api)];
}
