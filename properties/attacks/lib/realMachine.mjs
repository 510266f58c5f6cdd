// What the runner sets up around every durasim run, and the real machine's facts the probes compare what they
// see against (their oracles). Not a probe.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import os from 'node:os';
import { join } from 'node:path';

/** The time zone and locale durasim runs under: odd ones, so a leak of them is visible. */
export const REAL_TZ = 'Pacific/Chatham';
export const REAL_LANG = 'de_DE.UTF-8';
export const REAL_UMASK = 0o027;

/** A bait folder outside everything: files whose token a probe can only know by reading the real disk. */
export function makeBait(root) {
  const dir = join(root, 'bait');
  const token = `bait-${randomBytes(8).toString('hex')}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bait.txt'), `${token}\n`);
  writeFileSync(join(dir, 'bait.json'), JSON.stringify({ token }));
  return { dir, token };
}

/** A TCP server and a UDP socket on 127.0.0.1 that count whatever reaches them; the TCP one answers HTTP with a token. */
export async function startNetCanaries() {
  const token = `net-${randomBytes(8).toString('hex')}`;
  const hits = [];
  const body = `canary ${token}`;
  const tcp = createServer((socket) => {
    hits.push('tcp connection');
    socket.on('error', () => {});
    socket.once('data', (data) => hits.push(`tcp data: ${data.toString('latin1', 0, 60).replace(/\s+/g, ' ')}`));
    socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise((done) => tcp.listen(0, '127.0.0.1', done));
  const udp = createSocket('udp4');
  udp.on('message', (message) => hits.push(`udp datagram: ${message.toString('latin1', 0, 60)}`));
  await new Promise((done) => udp.bind(0, '127.0.0.1', done));
  return {
    token,
    tcpPort: tcp.address().port,
    udpPort: udp.address().port,
    /** What reached the canaries since the last take. */
    take: () => hits.splice(0),
    close: () => Promise.all([new Promise((done) => tcp.close(done)), new Promise((done) => udp.close(done))]),
  };
}

const nodeSays = (code, env) => spawnSync(process.execPath, ['-p', code], { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout.trim();

/** The real machine as durasim's process sees it (under the runner's TZ, LANG and TMPDIR). */
export function realFacts({ repo, bin, tmpdir }) {
  const mac = Object.values(os.networkInterfaces()).flat().find((i) => i && !i.internal && i.mac !== '00:00:00:00:00:00')?.mac;
  return {
    ATTACK_REAL_HOST: os.hostname(),
    ATTACK_REAL_HOME: os.userInfo().homedir,
    ATTACK_REAL_CPU: os.cpus()[0]?.model ?? '',
    ATTACK_REAL_MEM: String(os.totalmem()),
    ATTACK_REAL_KERNEL: os.release(),
    ...(mac ? { ATTACK_REAL_MAC: mac } : {}),
    ATTACK_REAL_TMPDIR: tmpdir,
    ATTACK_REAL_PATH: process.env.PATH ?? '',
    ATTACK_REAL_ARGV1: bin,
    ATTACK_REAL_EXEC: process.execPath,
    ATTACK_REAL_UMASK: String(REAL_UMASK),
    ATTACK_REAL_TZ: REAL_TZ,
    ATTACK_REAL_TZ_OFFSET: nodeSays('new Date().getTimezoneOffset()', { TZ: REAL_TZ }),
    ATTACK_REAL_LOCALE: nodeSays('Intl.NumberFormat().resolvedOptions().locale', { LANG: REAL_LANG, LC_ALL: REAL_LANG }),
    ATTACK_REAL_REPO: repo,
    ATTACK_REAL_PPID: String(process.pid),
  };
}

/** The real clock's facts, taken per probe (so a long session's day stays right). */
export function realClock() {
  return {
    ATTACK_REAL_NOW: String(Date.now()),
    ATTACK_REAL_DAY: new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: '2-digit', day: '2-digit' }).format(),
  };
}
