/**
 * strace's log of one worker process, read as it grows: every completed system call, its
 * arguments as strace prints them, its result. The log is written by `strace -f -y -xx -ttt`
 * (straceCommand.ts): one line per call, `TID  SECONDS.MICROS name(args) = result`; a call
 * interrupted by another thread's is split into `name(args <unfinished ...>` and
 * `<... name resumed>rest) = result`, and put back together here at the line that completes it.
 * Strings are hex (`"\x61\x62"`, followed by `...` when strace cut them); `-y` adds the path an fd
 * or AT_FDCWD stands for (`3</tmp/x/a.txt>`).
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface SysCall {
  /** The thread that made it. */
  tid: number;
  /** When it was entered, in microseconds since the epoch (strace's -ttt clock). */
  atUs: number;
  name: string;
  /** The arguments as printed, split at top-level commas. */
  args: string[];
  /** The return value; -1 with `errno` for a failure. */
  result: number;
  errno?: string;
  /** With -y: the path a returned fd stands for. */
  resultPath?: string;
}

/** Splits an argument list at the commas outside strings, brackets, braces and -y's `<…>`. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '[' || c === '{' || c === '<' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === '>' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '' || out.length > 0) out.push(last);
  return out;
}

/** The bytes of a hex string argument (`"\x61…"`), and whether strace cut it short (`"…"...`). */
export function stringArg(arg: string): { bytes: Buffer; cut: boolean } | undefined {
  const match = /^"((?:\\x[0-9a-f]{2})*)"(\.\.\.)?$/.exec(arg.trim());
  if (!match) return undefined;
  return { bytes: Buffer.from((match[1] ?? '').replaceAll('\\x', ''), 'hex'), cut: match[2] !== undefined };
}

/** A path decoded from hex: an argument string, or -y's `<…>` annotation. */
export function pathArg(arg: string): string | undefined {
  const decoded = stringArg(arg);
  return decoded && !decoded.cut ? decoded.bytes.toString('utf8') : undefined;
}

/** An fd argument with -y's path (`3</tmp/x>`, `AT_FDCWD</tmp>`), or a raw number (`0x12`). */
export function fdArg(arg: string): { fd: number | 'cwd'; path?: string } | undefined {
  const match = /^(AT_FDCWD|-?\d+|0x[0-9a-f]+)(?:<((?:\\x[0-9a-f]{2})*)>)?$/.exec(arg.trim());
  if (!match) return undefined;
  const fd = match[1] === 'AT_FDCWD' ? 'cwd' : Number(match[1]);
  return match[2] === undefined ? { fd } : { fd, path: Buffer.from(match[2].replaceAll('\\x', ''), 'hex').toString('utf8') };
}

const LINE = /^(\d+)\s+(\d+)\.(\d{6}) (.*)$/;
const RESULT = /\) += (-?\d+|0x[0-9a-f]+|\?)(?:<((?:\\x[0-9a-f]{2})*)>)?(?: ([A-Z][A-Z0-9_]*) \(.*\))?(?: \(.*\))?$/;

/** Reads a growing strace log, a completed call at a time. */
export class StraceLog {
  private offset = 0;
  private partial = '';
  /** The read buffer, made once: a confirmation reads the log at every step of every worker (one made per read zero-filled 300 MB in a run of 150 steps). */
  private buffer: Buffer | undefined;
  private readonly unfinished = new Map<number, { atUs: number; name: string; head: string }>();
  /** Lines this reader could not make sense of (kept for the report; a few). */
  readonly odd: string[] = [];

  constructor(readonly file: string) {}

  /** The calls completed since the last read (none when the file is not there yet). */
  read(): SysCall[] {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return [];
    }
    const chunks: Buffer[] = [];
    try {
      const buffer = (this.buffer ??= Buffer.allocUnsafe(1 << 20)); // only the bytes read are ever copied out
      for (let n = readSync(fd, buffer, 0, buffer.length, this.offset); n > 0; n = readSync(fd, buffer, 0, buffer.length, this.offset)) {
        chunks.push(Buffer.from(buffer.subarray(0, n)));
        this.offset += n;
      }
    } finally {
      closeSync(fd);
    }
    const text = this.partial + Buffer.concat(chunks).toString('latin1');
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    const calls: SysCall[] = [];
    for (const line of lines) {
      const call = this.parse(line);
      if (call) calls.push(call);
    }
    return calls;
  }

  private parse(line: string): SysCall | undefined {
    const match = LINE.exec(line);
    if (!match) return undefined; // "+++ exited +++", "--- SIGCHLD ---" and the like carry no call
    const tid = Number(match[1]);
    const atUs = Number(match[2]) * 1e6 + Number(match[3]);
    let body = match[4] as string;
    if (body.startsWith('---') || body.startsWith('+++')) return undefined;
    // A call strace could not name ("???"): the tracee was killed as it entered the call, before
    // strace read which call it was. It never returned, and there is nothing to follow in it.
    if (body.startsWith('???(') || body.startsWith('<... ??? resumed>')) return undefined;
    let name: string;
    let started = atUs;
    const resumed = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/.exec(body);
    if (resumed) {
      const head = this.unfinished.get(tid);
      this.unfinished.delete(tid);
      if (!head || head.name !== resumed[1]) {
        this.note(line);
        return undefined;
      }
      name = head.name;
      started = head.atUs;
      body = `${name}(${head.head}${resumed[2]}`;
    } else {
      const open = /^([a-z0-9_]+)\((.*)$/.exec(body);
      if (!open) {
        this.note(line);
        return undefined;
      }
      name = open[1] as string;
      const unfinished = / <unfinished \.\.\.>$/.exec(open[2] as string);
      if (unfinished) {
        this.unfinished.set(tid, { atUs, name, head: (open[2] as string).slice(0, unfinished.index) });
        return undefined;
      }
    }
    const result = RESULT.exec(body);
    if (!result) {
      this.note(line);
      return undefined;
    }
    const args = splitArgs(body.slice(name.length + 1, result.index));
    const value = result[1] === '?' ? -1 : Number(result[1]);
    const call: SysCall = { tid, atUs: started, name, args, result: value };
    if (result[3] !== undefined) call.errno = result[3];
    if (result[2] !== undefined) call.resultPath = Buffer.from(result[2].replaceAll('\\x', ''), 'hex').toString('utf8');
    return call;
  }

  private note(line: string): void {
    if (this.odd.length < 8) this.odd.push(line.slice(0, 200));
  }
}
