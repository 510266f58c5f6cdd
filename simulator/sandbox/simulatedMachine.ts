/**
 * The machine a simulated process runs on, as node:os describes it: one fixed machine, the same on
 * every run and every host (a library that asks where the home folder is, or how many cores there
 * are, gets an answer that never makes two runs differ). Its home and temp folders are folders of
 * the simulated disk. Users and groups are the process's own (the owner memfs stamps on files).
 */
const HOME = '/home/durasim';

/** os.<name>() as the simulated machine answers it; undefined for what it does not describe. */
export const MACHINE: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  homedir: () => HOME,
  tmpdir: () => '/tmp',
  hostname: () => 'durasim-host',
  userInfo: (options) => {
    const buffers = (options as { encoding?: string } | undefined)?.encoding === 'buffer';
    const text = (value: string): string | Buffer => (buffers ? Buffer.from(value) : value);
    return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, username: text('durasim'), homedir: text(HOME), shell: text('/bin/sh') };
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
