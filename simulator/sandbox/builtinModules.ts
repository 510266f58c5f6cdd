/**
 * Every Node builtin module, and what a journal gets of it under simulation. A module with I/O of
 * its own (the disk, the network, processes, the machine, the thread pool, code outside the
 * sandbox) is served by the simulated world or refused, by name (guardModules.ts guards it, the
 * world answers: node/served/); the rest do no I/O of their own (they act on what they are handed).
 * builtinModules.test.ts fails when Node has a module this table does not name.
 */
export type BuiltinUse =
  /** Every call with I/O answered by the simulated world; any other refused. */
  | 'served'
  /** Every function and class refused (an escape, named). */
  | 'refused'
  /** No I/O of its own: as Node has it. */
  | 'pure';

export const BUILTIN_MODULES: Readonly<Record<string, { use: BuiltinUse; what: string }>> = {
  fs: { use: 'served', what: 'the simulated, crash-consistent disk (symbolic links and watchers refused)' },
  'fs/promises': { use: 'served', what: 'the simulated disk' },
  timers: { use: 'served', what: 'the virtual clock' },
  'timers/promises': { use: 'served', what: 'the virtual clock (setInterval refused)' }, // allow-ambient: a description, not a call
  http: { use: 'served', what: 'the client reaches the fake service only; servers and agents refused' },
  https: { use: 'served', what: 'as http' },
  os: { use: 'served', what: 'the simulated machine (one fixed machine on every host); priorities refused' },
  crypto: { use: 'served', what: "randomness from the scenario; pbkdf2, scrypt, hkdf, checkPrime, sign and verify at once (their callback later); key generation refused; hashes, ciphers and the rest pure; crypto.subtle's answers before the world goes on" },
  zlib: { use: 'served', what: 'compression at once (a callback later, a stream chunk by chunk), never on the thread pool' },
  process: { use: 'served', what: 'the simulated process (pid, env, cwd, exit, its listeners, its output); the real clock, machine, signals and native code refused' },
  worker_threads: { use: 'served', what: 'MessageChannel and BroadcastChannel inside the process; a simulated process is a main thread (no parentPort); Worker refused' },
  perf_hooks: { use: 'served', what: 'performance on the virtual clock; event-loop monitors and observers refused' },
  v8: { use: 'served', what: 'the heap and flags refused; serialize and the rest pure' },
  async_hooks: { use: 'served', what: 'AsyncLocalStorage and AsyncResource as Node has them; createHook refused (its callbacks run for durasim\'s resources too, in no process\'s turn)' },
  module: { use: 'served', what: 'register, registerHooks and syncBuiltinESMExports refused; createRequire and the rest pure' },
  sqlite: { use: 'served', what: 'DatabaseSync on SQLite in WebAssembly over the simulated disk, as better-sqlite3 is (Node 22.5 and later; docs/sqlite.md); backup and Session refused' },
  tty: { use: 'served', what: 'isatty is false (a simulated process has no terminal); streams on real descriptors refused' },
  child_process: { use: 'refused', what: 'real processes' },
  cluster: { use: 'refused', what: 'real processes' },
  test: { use: 'refused', what: 'runs tests in real processes' },
  net: { use: 'refused', what: 'the real network (address helpers pure)' },
  tls: { use: 'refused', what: 'the real network (helpers pure)' },
  http2: { use: 'refused', what: 'the real network (settings helpers pure)' },
  dgram: { use: 'refused', what: 'the real network' },
  dns: { use: 'refused', what: 'the real network' },
  'dns/promises': { use: 'refused', what: 'the real network' },
  _http_agent: { use: 'refused', what: "the real network, under http's own names" },
  _http_client: { use: 'refused', what: "the real network, under http's own names" },
  _http_server: { use: 'refused', what: "the real network, under http's own names" },
  _tls_wrap: { use: 'refused', what: "the real network, under tls's own names" },
  vm: { use: 'refused', what: 'code in contexts the sandbox does not guard' },
  inspector: { use: 'refused', what: 'the debugger protocol' },
  'inspector/promises': { use: 'refused', what: 'the debugger protocol' },
  repl: { use: 'refused', what: 'code evaluated outside the sandbox' },
  wasi: { use: 'refused', what: 'the real file system through pre-opened folders' },
  sea: { use: 'refused', what: "the running binary's own assets (a single executable application)" },
  'test/reporters': { use: 'refused', what: "the test runner's reporters (node:test is refused)" },
  trace_events: { use: 'refused', what: 'trace files on the real disk' },
  _http_common: { use: 'pure', what: 'HTTP parsing helpers' },
  _http_incoming: { use: 'pure', what: 'the IncomingMessage class' },
  _http_outgoing: { use: 'pure', what: 'the OutgoingMessage class' },
  _stream_duplex: { use: 'pure', what: 'streams' },
  _stream_passthrough: { use: 'pure', what: 'streams' },
  _stream_readable: { use: 'pure', what: 'streams' },
  _stream_transform: { use: 'pure', what: 'streams' },
  _stream_wrap: { use: 'pure', what: 'streams' },
  _stream_writable: { use: 'pure', what: 'streams' },
  _tls_common: { use: 'pure', what: 'secure contexts from what it is handed' },
  assert: { use: 'pure', what: 'assertions' },
  'assert/strict': { use: 'pure', what: 'assertions' },
  buffer: { use: 'pure', what: 'Buffer (allocUnsafe zero-filled under a turn)' },
  console: { use: 'pure', what: "writes through the process's served output" },
  constants: { use: 'pure', what: 'constants' },
  diagnostics_channel: { use: 'pure', what: 'channels inside the thread' },
  domain: { use: 'pure', what: 'error routing inside the process' },
  events: { use: 'pure', what: 'emitters' },
  path: { use: 'pure', what: 'path strings' },
  'path/posix': { use: 'pure', what: 'path strings' },
  'path/win32': { use: 'pure', what: 'path strings' },
  punycode: { use: 'pure', what: 'strings' },
  querystring: { use: 'pure', what: 'strings' },
  readline: { use: 'pure', what: 'lines of the streams it is handed (process.stdin is empty)' },
  'readline/promises': { use: 'pure', what: 'as readline' },
  stream: { use: 'served', what: 'streams, as Node has them; setDefaultHighWaterMark refused (a setting of the whole thread, which no restart would undo)' },
  'stream/consumers': { use: 'pure', what: 'streams' },
  'stream/promises': { use: 'pure', what: 'streams' },
  'stream/web': { use: 'served', what: 'web streams as Node has them; CompressionStream and DecompressionStream refused (their zlib runs on the thread pool, unwaited)' },
  string_decoder: { use: 'pure', what: 'strings' },
  sys: { use: 'pure', what: 'util, by its old name' },
  url: { use: 'pure', what: 'URLs' },
  util: { use: 'pure', what: 'helpers' },
  'util/types': { use: 'pure', what: 'type checks' },
};
