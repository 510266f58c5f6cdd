/**
 * The real system calls of a confirmation's worker processes (strace logs, straceLog.ts) replayed
 * onto the simulator's disk model (simulator/disk/disk.ts), so the model holds what those calls
 * made durable: which bytes were fsynced, which names a folder fsync covered. At a machine crash
 * the crash image is built from that state by the same rules the simulation uses — from the
 * journal's real calls through Node and libuv, not from durasim's model of Node.
 *
 * Rules:
 * - Only successful calls on paths under the work folder count; a call that crosses its edge (a
 *   rename from outside, a symlink, a write strace cut short) is a problem: the replay cannot follow
 *   it, and the confirmation says so rather than guess.
 * - Processes' logs are merged by strace's timestamps; each call is stamped with the worker step it
 *   belongs to, read from the worker's own side-file writes in the same log (the step line is
 *   written just before the step's real call).
 * - The model applies each call as the simulation would; where the model refuses what Linux did,
 *   that is a problem too (a fidelity defect of durasim).
 */
import { posix } from 'node:path';
import { Disk } from '../../simulator/disk/disk.js';
import type { MarkedDiskCall } from '../../simulator/disk/diskCallLog.js';
import { fdArg, pathArg, StraceLog, stringArg, type SysCall } from './straceLog.js';

interface OpenReal {
  /** The model's fd; undefined for the worker's side file. */
  sim?: number;
  /** O_SYNC or O_DSYNC: every write is also an fsync. */
  sync: boolean;
  /** A file the model leaves out (a SQLite WAL index, `-shm`): its calls change nothing there. */
  ignored?: boolean;
  path: string;
}

interface Proc {
  name: string;
  log: StraceLog;
  sideFile: string;
  owner: number;
  cwd: string;
  fds: Map<number, OpenReal>;
  mark: string;
  queue: SysCall[];
  sideText: string;
}

const WRITE_CALLS = new Set(['write', 'pwrite64', 'writev', 'pwritev', 'pwritev2']);

export class RealDisk {
  readonly disk: Disk;
  readonly calls: MarkedDiskCall[] = [];
  /** Real calls the replay cannot follow (not modelled: a symlink, a rename across the folder's edge…), a sentence each. */
  readonly unfollowed: string[] = [];
  /** Real calls Linux made and the disk model refused: a fidelity defect of durasim, a sentence each. */
  readonly refused: string[] = [];
  /** The real calls on the work folder, as the report shows them: "worker-0#1 step 3 fs.rename | rename(a.tmp, a.json) = 0". */
  readonly log: string[] = [];
  private readonly procs = new Map<string, Proc>();
  private owners = 0;

  /**
   * `ignored`: files under the folder the model leaves out, and every call on them — a SQLite
   * journal's WAL index (`journal.db-shm`): SQLite's shared memory, written through mmap, which no
   * system call shows, and rebuilt from the WAL at the first open after a crash (docs/sqlite.md);
   * the simulation keeps it in the machine's memory, off the disk.
   */
  constructor(readonly dir: string, files: Record<string, string>, private readonly ignored: (abs: string) => boolean = () => false) {
    this.disk = new Disk(dir, files);
    this.disk.callLog = (call) => this.calls.push({ mark: this.current?.mark ?? '', call });
  }

  private current: Proc | undefined;
  /**
   * Called as the replay makes a change durable (an fsync that wrote something, a folder fsync that
   * changed its entries), the model holding the durable image right after that call: the records
   * are read there, as the simulation reads them after every durable change. A SQLite commit makes
   * its changes durable inside one JavaScript call, between two steps of the worker.
   */
  onDurable: (() => void) | undefined;

  /** A worker incarnation's process: its strace log, and the side file whose writes mark its steps. */
  attach(name: string, logFile: string, sideFile: string): void {
    this.procs.set(name, { name, log: new StraceLog(logFile), sideFile, owner: this.owners++, cwd: this.dir, fds: new Map(), mark: '', queue: [], sideText: '' });
  }

  /** Reads every log's new calls and applies them, merged by time. */
  catchUp(): void {
    for (const proc of this.procs.values()) proc.queue.push(...proc.log.read());
    for (;;) {
      let next: Proc | undefined;
      for (const proc of this.procs.values()) {
        const head = proc.queue[0];
        if (head !== undefined && (next === undefined || head.atUs < (next.queue[0] as SysCall).atUs)) next = proc;
      }
      if (next === undefined) return;
      this.apply(next, next.queue.shift() as SysCall);
    }
  }

  /** A process that is gone (its strace exited, so its log is complete): the rest of its calls, then its handles close, as the kernel closes them. */
  ended(name: string): void {
    this.catchUp();
    const proc = this.procs.get(name);
    if (!proc) return;
    this.disk.closeOwnedBy(proc.owner);
    for (const odd of proc.log.odd) this.problem(proc, `a line of the system-call log could not be read: ${odd}`);
    this.procs.delete(name);
  }

  private problem(proc: Proc, text: string, list = this.unfollowed): void {
    if (list.length < 20) list.push(`${proc.mark || proc.name}: ${text}`);
  }

  private under(abs: string): boolean {
    return abs === this.dir || abs.startsWith(`${this.dir}/`);
  }

  /** The absolute path a (dirfd, path) pair names. */
  private resolveAt(proc: Proc, dirfd: string | undefined, path: string | undefined): string | undefined {
    const name = path === undefined ? undefined : pathArg(path);
    if (name === undefined) return undefined;
    if (name.startsWith('/')) return posix.normalize(name);
    const base = dirfd === undefined ? { fd: 'cwd' as const, path: proc.cwd } : fdArg(dirfd);
    const from = base?.path ?? (base?.fd === 'cwd' ? proc.cwd : undefined);
    return from === undefined ? undefined : posix.resolve(from, name);
  }

  private fd(proc: Proc, arg: string | undefined): { fd: number; open: OpenReal | undefined; path?: string } | undefined {
    const parsed = arg === undefined ? undefined : fdArg(arg);
    if (!parsed || parsed.fd === 'cwd') return undefined;
    return { fd: parsed.fd, open: proc.fds.get(parsed.fd), ...(parsed.path !== undefined ? { path: parsed.path } : {}) };
  }

  private apply(proc: Proc, call: SysCall): void {
    if (call.result < 0) return; // a failed call changed nothing
    this.current = proc;
    const version = this.disk.durableVersion;
    try {
      this.applyOne(proc, call);
      if (this.disk.durableVersion !== version) this.onDurable?.();
    } catch (error) {
      this.problem(proc, `Linux did ${call.name}(${this.shown(proc, call)}) = ${call.result}, which the disk model refused: ${error instanceof Error ? error.message : String(error)}`, this.refused);
    } finally {
      this.current = undefined;
    }
  }

  /** A call's arguments with its paths decoded, for the log and for problems. */
  private shown(proc: Proc, call: SysCall): string {
    return call.args
      .map((arg) => {
        const fd = fdArg(arg);
        if (fd?.path !== undefined) return posix.relative(this.dir, fd.path) || '.';
        const text = stringArg(arg);
        if (text === undefined) return arg.length > 60 ? `${arg.slice(0, 60)}…` : arg;
        const decoded = text.bytes.toString('utf8');
        const abs = decoded.startsWith('/') ? decoded : posix.resolve(proc.cwd, decoded);
        if (this.under(abs) && !WRITE_CALLS.has(call.name)) return JSON.stringify(posix.relative(this.dir, abs) || '.');
        return JSON.stringify(decoded.length > 40 ? `${decoded.slice(0, 40)}…` : decoded) + (text.cut ? '…' : '');
      })
      .join(', ');
  }

  private note(proc: Proc, call: SysCall): void {
    this.log.push(`${proc.mark || proc.name} | ${call.name}(${this.shown(proc, call)}) = ${call.result}`);
  }

  private writeData(proc: Proc, call: SysCall): Buffer | undefined {
    const source = call.name === 'write' || call.name === 'pwrite64' ? [call.args[1] ?? ''] : [...(call.args[1] ?? '').matchAll(/iov_base=("(?:\\x[0-9a-f]{2})*"(?:\.\.\.)?)/g)].map((m) => m[1] as string);
    const parts = source.map(stringArg);
    if (parts.some((p) => p === undefined)) {
      this.problem(proc, `the data of ${call.name} could not be read from the log`);
      return undefined;
    }
    const bytes = Buffer.concat(parts.map((p) => (p as { bytes: Buffer }).bytes));
    if (bytes.length < call.result) {
      this.problem(proc, `strace cut the data of a ${call.result}-byte ${call.name} short`);
      return undefined;
    }
    return bytes.subarray(0, call.result);
  }

  private applyOne(proc: Proc, call: SysCall): void {
    const { args } = call;
    switch (call.name) {
      case 'openat':
      case 'open':
      case 'creat': {
        const [dirfd, path, flags] = call.name === 'openat' ? [args[0], args[1], args[2] ?? ''] : [undefined, args[0], call.name === 'creat' ? 'O_WRONLY|O_CREAT|O_TRUNC' : (args[1] ?? '')];
        const abs = this.resolveAt(proc, dirfd, path);
        if (abs === proc.sideFile) return void proc.fds.set(call.result, { sync: false, path: abs });
        if (abs === undefined || !this.under(abs)) return;
        if (this.ignored(abs)) return void proc.fds.set(call.result, { sync: false, path: abs, ignored: true });
        this.note(proc, call);
        this.open(proc, call.result, abs, flags);
        return;
      }
      case 'write':
      case 'pwrite64':
      case 'writev':
      case 'pwritev':
      case 'pwritev2': {
        const target = this.fd(proc, args[0]);
        if (!target?.open) return this.outside(proc, call, target?.path);
        if (target.open.ignored) return;
        const data = this.writeData(proc, call);
        if (data === undefined) return;
        if (target.open.sim === undefined) return this.side(proc, data);
        this.note(proc, call);
        const at = call.name === 'pwrite64' ? Number(args[3]) : call.name === 'pwritev' || call.name === 'pwritev2' ? Number(args[3]) : undefined;
        this.disk.handleWrite(target.open.sim, data, at !== undefined && at >= 0 ? at : undefined);
        if (target.open.sync) this.disk.handleSync(target.open.sim);
        return;
      }
      case 'read':
      case 'readv': {
        const sim = this.fd(proc, args[0])?.open?.sim;
        if (sim !== undefined && call.result > 0) this.disk.handleReadAt(sim, call.result);
        return;
      }
      case 'lseek': {
        const sim = this.fd(proc, args[0])?.open?.sim;
        if (sim !== undefined) this.disk.handle(sim).position = call.result;
        return;
      }
      case 'pread64':
      case 'preadv':
        return;
      case 'fsync':
      case 'fdatasync': {
        const target = this.fd(proc, args[0]);
        if (target?.open?.ignored) return;
        if (target?.open?.sim === undefined) return this.outside(proc, call, target?.path);
        this.note(proc, call);
        this.disk.handleSync(target.open.sim);
        return;
      }
      case 'ftruncate': {
        const target = this.fd(proc, args[0]);
        if (target?.open?.ignored) return;
        if (target?.open?.sim === undefined) return this.outside(proc, call, target?.path);
        this.note(proc, call);
        this.disk.handleTruncate(target.open.sim, Number(args[1]));
        return;
      }
      case 'truncate': {
        const abs = this.resolveAt(proc, undefined, args[0]);
        if (abs === undefined || !this.under(abs)) return;
        this.note(proc, call);
        const file = this.disk.openFile(abs, 'r+', proc.owner);
        try {
          this.disk.handleTruncate(file.fd, Number(args[1]));
        } finally {
          this.disk.handleClose(file.fd);
        }
        return;
      }
      case 'close': {
        const target = this.fd(proc, args[0]);
        if (!target?.open) return;
        proc.fds.delete(target.fd);
        if (target.open.sim !== undefined) this.disk.handleClose(target.open.sim);
        return;
      }
      case 'rename':
      case 'renameat':
      case 'renameat2':
      case 'link':
      case 'linkat': {
        const two = call.name === 'rename' || call.name === 'link';
        const from = two ? this.resolveAt(proc, undefined, args[0]) : this.resolveAt(proc, args[0], args[1]);
        const to = two ? this.resolveAt(proc, undefined, args[1]) : this.resolveAt(proc, args[2], args[3]);
        const inside = [from, to].filter((p) => p !== undefined && this.under(p)).length;
        if (inside === 0 && from !== undefined && to !== undefined) return;
        this.note(proc, call);
        if (inside === 1 || from === undefined || to === undefined) return this.problem(proc, `${call.name} across the work folder's edge (${this.shown(proc, call)}): what it brings in or takes out is not modelled`);
        if (call.name === 'renameat2' && !/^0$/.test(args[4] ?? '0')) return this.problem(proc, `renameat2 with ${args[4]} is not modelled`);
        if (call.name.startsWith('rename')) this.disk.rename(from, to);
        else this.disk.link(from, to);
        return;
      }
      case 'unlink':
      case 'unlinkat':
      case 'rmdir': {
        const abs = call.name === 'unlinkat' ? this.resolveAt(proc, args[0], args[1]) : this.resolveAt(proc, undefined, args[0]);
        if (abs === undefined || !this.under(abs) || this.ignored(abs)) return;
        this.note(proc, call);
        if (call.name === 'rmdir' || (args[2] ?? '').includes('AT_REMOVEDIR')) this.disk.rmdir(abs);
        else this.disk.unlink(abs);
        return;
      }
      case 'mkdir':
      case 'mkdirat': {
        const abs = call.name === 'mkdirat' ? this.resolveAt(proc, args[0], args[1]) : this.resolveAt(proc, undefined, args[0]);
        if (abs === undefined || !this.under(abs)) return;
        this.note(proc, call);
        this.disk.mkdir(abs, false);
        return;
      }
      case 'copy_file_range':
      case 'sendfile': {
        const [inArg, inOff, outArg, outOff] = call.name === 'copy_file_range' ? [args[0], args[1], args[2], args[3]] : [args[1], args[2], args[0], 'NULL'];
        const out = this.fd(proc, outArg);
        if (out?.open?.sim === undefined) return this.outside(proc, call, out?.path);
        this.note(proc, call);
        const source = this.fd(proc, inArg)?.open?.sim;
        if (source === undefined) return this.problem(proc, `${call.name} into the work folder from outside it: the bytes are not in the log`);
        const offset = (text: string | undefined): number | undefined => (text === undefined || text === 'NULL' ? undefined : Number(/^\[(\d+)\]$/.exec(text)?.[1] ?? NaN));
        const bytes = this.disk.handleReadAt(source, call.result, offset(inOff));
        this.disk.handleWrite(out.open.sim, bytes, offset(outOff));
        return;
      }
      case 'symlink':
      case 'symlinkat': {
        const abs = call.name === 'symlink' ? this.resolveAt(proc, undefined, args[1]) : this.resolveAt(proc, args[1], args[2]);
        if (abs !== undefined && this.under(abs)) this.problem(proc, `a symbolic link in the work folder (${this.shown(proc, call)}) is not modelled`);
        return;
      }
      case 'chdir': {
        const abs = this.resolveAt(proc, undefined, args[0]);
        if (abs !== undefined) proc.cwd = abs;
        return;
      }
      default:
        return;
    }
  }

  /** A write-like call on an fd the replay does not follow: fine outside the work folder, a problem inside it. */
  private outside(proc: Proc, call: SysCall, path: string | undefined): void {
    if (path !== undefined && this.under(path.replace(/ \(deleted\)$/, ''))) this.problem(proc, `${call.name} on ${posix.relative(this.dir, path)} through a handle the log never showed opening`);
  }

  private open(proc: Proc, fd: number, abs: string, flagText: string): void {
    const flags = new Set(flagText.split('|'));
    const access = flags.has('O_RDWR') ? '+' : flags.has('O_WRONLY') ? 'w' : 'r';
    const [create, exclusive, truncate, append] = ['O_CREAT', 'O_EXCL', 'O_TRUNC', 'O_APPEND'].map((f) => flags.has(f));
    if (flags.has('O_TMPFILE')) return this.problem(proc, `open with O_TMPFILE (${posix.relative(this.dir, abs)}) is not modelled`);
    const exists = this.disk.exists(abs);
    if (!create && !exists) return this.problem(proc, `Linux opened ${posix.relative(this.dir, abs)}, which the disk model does not have`);
    const plus = access === '+' ? '+' : '';
    const x = exclusive ? 'x' : '';
    let node: string;
    if (append) node = `a${x}${plus}`;
    else if (truncate && access !== 'r') node = `w${x}${plus}`;
    else if (create && !exists) node = `wx${plus}`;
    else node = access === 'r' ? 'r' : 'r+';
    const file = this.disk.openFile(abs, node, proc.owner);
    if (append && truncate) this.disk.handleTruncate(file.fd, 0);
    proc.fds.set(fd, { sim: file.fd, sync: flags.has('O_SYNC') || flags.has('O_DSYNC'), path: abs });
  }

  /** The worker's own side-file write: a step line moves the process's mark. */
  private side(proc: Proc, data: Buffer): void {
    proc.sideText += data.toString('utf8');
    const lines = proc.sideText.split('\n');
    proc.sideText = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const parsed = JSON.parse(line) as { type?: string; step?: number; op?: string };
        if (parsed.type === 'step') proc.mark = `${proc.name} step ${parsed.step} ${parsed.op}`;
      } catch {
        // not a step line
      }
    }
  }
}
