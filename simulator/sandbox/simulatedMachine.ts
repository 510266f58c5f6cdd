/**
 * The machine a simulated process runs on, as node:os describes it: one fixed machine, the same on
 * every run and every host (a library that asks where the home folder is, or how many cores there
 * are, gets an answer that never makes two runs differ). Its home and temp folders are folders of
 * the simulated disk. Its user and group are IDENTITY's, whom the disk's files belong to.
 *
 * And the process itself, as `process` and node:worker_threads describe it (PROCESS): user 1000
 * and group 1000, umask 022, the Node of /usr/local/bin/node started as `node /journal`, with no
 * flags, in its main thread. The journal's own files are under /journal (JOURNAL_ROOT): where they
 * are on the real machine never reaches a trace.
 */
const HOME = '/home/durasim';

/** Where a simulated process sees the journal's files: its entry file is /journal/<its name>, the others where they are from its folder. */
export const JOURNAL_ROOT = '/journal';

/** The simulated user: who the process is, and whom the disk's files belong to. */
export const IDENTITY = { uid: 1000, gid: 1000, username: 'durasim' } as const;

/** The simulated process's umask when it starts: a created file is 0o644, a folder 0o755. */
export const INITIAL_UMASK = 0o022;

const EXEC_PATH = '/usr/local/bin/node';

/** A simulated process's own state, which its calls change and its restart forgets (its umask, its argv). */
export interface ProcessState {
  umask: number;
  argv?: string[];
  execArgv?: string[];
}

function invalid(code: string, message: string, make: new (message: string) => Error): Error {
  return Object.assign(new make(message), { code });
}

/** process.umask(mask)'s argument as Node reads it: a 32-bit number, or an octal string. */
function fileMode(value: unknown): number {
  if (typeof value === 'string') {
    if (!/^[0-7]+$/.test(value)) throw invalid('ERR_INVALID_ARG_VALUE', `The argument 'mask' must be a 32-bit unsigned integer or an octal string. Received ${JSON.stringify(value)}`, TypeError);
    return Number.parseInt(value, 8) & 0o777;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 32 - 1) {
    throw invalid(typeof value === 'number' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE', `The "mask" argument must be a 32-bit unsigned integer or an octal string. Received ${String(value)}`, typeof value === 'number' ? RangeError : TypeError);
  }
  return value & 0o777;
}

/**
 * `process.<name>` and `worker_threads.<name>` as the simulated process answers them (a call's
 * arguments in `args`, its own state in `state`); undefined for what it does not describe.
 */
export const PROCESS: Readonly<Record<string, (args: readonly unknown[], state: ProcessState) => unknown>> = {
  'process.getuid': () => IDENTITY.uid,
  'process.geteuid': () => IDENTITY.uid,
  'process.getgid': () => IDENTITY.gid,
  'process.getegid': () => IDENTITY.gid,
  'process.getgroups': () => [IDENTITY.gid],
  'process.umask': (args, state) => {
    const old = state.umask;
    if (args[0] !== undefined) state.umask = fileMode(args[0]);
    return old;
  },
  'process.argv': (_args, state) => (state.argv ??= [EXEC_PATH, JOURNAL_ROOT]),
  'process.execPath': () => EXEC_PATH,
  'process.execArgv': (_args, state) => (state.execArgv ??= []),
  'worker_threads.isMainThread': () => true,
  'worker_threads.threadId': () => 0,
  'worker_threads.parentPort': () => null,
  'worker_threads.workerData': () => null,
  'worker_threads.resourceLimits': () => ({}),
};

/** os.<name>() as the simulated machine answers it; undefined for what it does not describe. */
export const MACHINE: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  homedir: () => HOME,
  tmpdir: () => '/tmp',
  hostname: () => 'durasim-host',
  userInfo: (options) => {
    const buffers = (options as { encoding?: string } | undefined)?.encoding === 'buffer';
    const text = (value: string): string | Buffer => (buffers ? Buffer.from(value) : value);
    return { uid: IDENTITY.uid, gid: IDENTITY.gid, username: text(IDENTITY.username), homedir: text(HOME), shell: text('/bin/sh') };
  },
  platform: () => 'linux',
  type: () => 'Linux',
  arch: () => 'x64',
  machine: () => 'x86_64',
  release: () => '6.1.0-durasim',
  version: () => '#1 SMP durasim',
  endianness: () => 'LE',
  availableParallelism: () => 2,
  cpus: () => [0, 1].map(() => ({ model: 'durasim virtual cpu', speed: 2000, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } })),
  totalmem: () => 8 * 2 ** 30,
  freemem: () => 4 * 2 ** 30,
  loadavg: () => [0, 0, 0],
  uptime: () => 3600,
  networkInterfaces: () => ({ lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }] }),
  getPriority: () => 0,
};
