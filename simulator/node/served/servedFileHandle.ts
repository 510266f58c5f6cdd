/**
 * node:fs/promises's FileHandle on the simulated disk: every method is one scheduled step on the
 * handle's open file; reads and writes start at the handle's position unless they name one (on a
 * handle opened for append a write goes to the end), writeFile and appendFile never truncate,
 * readFile reads from the position to the end, and a closed handle stays closed (fd -1).
 */
import type { OpenFile } from '../../disk/disk.js';
import { ioError } from '../../disk/ioError.js';
import { preview, rel } from '../../world/trace.js';
import { bytesOf, decoded, encodingOf, positionOf, scatter, viewsOf } from './fsArgs.js';
import { lockServedClass } from '../../sandbox/lockServedClass.js';
import type { ServeContext } from './serveContext.js';

export class ServedFileHandle {
  // What it serves with is private (#): the journal holds the handle, and a property would hand it durasim's world.
  readonly #ctx: ServeContext;
  readonly #file: OpenFile;

  constructor(ctx: ServeContext, file: OpenFile) {
    this.#ctx = ctx;
    this.#file = file;
  }

  get fd(): number {
    return this.#ctx.world.disk.isOpen(this.#file) ? this.#file.fd : -1;
  }

  get #name(): string {
    return this.#file.isDirectory ? `${rel(this.#file.path)}/` : rel(this.#file.path);
  }

  #step<T>(op: string, detail: string, run: (fd: number) => T): Promise<T> {
    return this.#ctx.world.syncStep(this.#ctx.proc, op, detail, () => run(this.#ctx.world.disk.fdOf(this.#file)));
  }

  #writeStep(op: string, data: unknown, options: unknown): Promise<void> {
    const bytes = bytesOf(data, encodingOf(options));
    return this.#step(op, `${this.#name} ${preview(bytes.toString('utf8'))}`, (fd) => {
      this.#ctx.world.notePayload(bytes);
      this.#ctx.world.disk.handleWrite(fd, bytes);
    });
  }

  readFile(options?: unknown): Promise<Buffer | string> {
    return this.#step('fh.readFile', this.#name, (fd) => decoded(this.#ctx.world.disk.handleRead(fd), encodingOf(options)));
  }

  writeFile(data: unknown, options?: unknown): Promise<void> {
    return this.#writeStep('fh.writeFile', data, options);
  }

  appendFile(data: unknown, options?: unknown): Promise<void> {
    return this.#writeStep('fh.appendFile', data, options);
  }

  /** read(buffer, offset, length, position), read({ buffer, offset, length, position }) or read(). */
  read(first?: unknown, offset?: number, length?: number, position?: unknown): Promise<{ bytesRead: number; buffer: Uint8Array }> {
    const options = ArrayBuffer.isView(first) ? { buffer: first, offset, length, position } : ((first ?? {}) as { buffer?: Uint8Array; offset?: number; length?: number; position?: unknown });
    const buffer = (options.buffer as Uint8Array | undefined) ?? Buffer.alloc(16384);
    const at = options.offset ?? 0;
    const count = options.length ?? buffer.byteLength - at;
    return this.#step('fh.read', this.#name, (fd) => {
      if (count === 0) return { bytesRead: 0, buffer }; // as node:fs: an open handle, no read at all
      const bytes = this.#ctx.world.disk.handleReadAt(fd, count, positionOf(options.position));
      new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).set(bytes, at);
      return { bytesRead: bytes.length, buffer };
    });
  }

  /** write(buffer, offset, length, position) or write(string, position, encoding). */
  write(data: unknown, offsetOrPosition?: unknown, lengthOrEncoding?: unknown, position?: unknown): Promise<{ bytesWritten: number; buffer: unknown }> {
    let bytes: Buffer;
    let at: number | undefined;
    if (typeof data === 'string') {
      bytes = Buffer.from(data, (lengthOrEncoding as BufferEncoding | undefined) ?? 'utf8');
      at = positionOf(offsetOrPosition);
    } else {
      const all = bytesOf(data);
      const offset = (offsetOrPosition as number | undefined) ?? 0;
      bytes = all.subarray(offset, offset + ((lengthOrEncoding as number | undefined) ?? all.length - offset));
      at = positionOf(position);
    }
    return this.#step('fh.write', `${this.#name} ${preview(bytes.toString('utf8'))}`, (fd) => {
      this.#ctx.world.notePayload(bytes);
      // Node's FileHandle.write makes no write(2) for an empty buffer (writeSync does: EBADF on a read-only fd).
      this.#ctx.world.disk.handleWrite(fd, bytes, at, false);
      return { bytesWritten: bytes.length, buffer: data };
    });
  }

  /** writev(buffers, position): the buffers one after another, as one write. */
  writev(buffers: ArrayBufferView[], position?: unknown): Promise<{ bytesWritten: number; buffers: ArrayBufferView[] }> {
    const bytes = Buffer.concat(buffers.map((b) => bytesOf(b)));
    return this.#step('fh.writev', `${this.#name} ${preview(bytes.toString('utf8'))}`, (fd) => {
      this.#ctx.world.notePayload(bytes);
      this.#ctx.world.disk.handleWrite(fd, bytes, positionOf(position), buffers.length > 0); // no buffers: no writev(2)
      return { bytesWritten: bytes.length, buffers };
    });
  }

  /** readv(buffers, position): one read, scattered over the buffers in order. */
  readv(buffers: ArrayBufferView[], position?: unknown): Promise<{ bytesRead: number; buffers: ArrayBufferView[] }> {
    const views = viewsOf(buffers);
    return this.#step('fh.readv', this.#name, (fd) => {
      if (views.length === 0) throw ioError('EINVAL', 'read'); // libuv refuses a read of no buffers
      const bytes = this.#ctx.world.disk.handleReadAt(fd, views.reduce((n, v) => n + v.length, 0), positionOf(position));
      scatter(bytes, views);
      return { bytesRead: bytes.length, buffers };
    });
  }

  chmod(mode: number | string): Promise<void> {
    return this.#step('fh.chmod', this.#name, (fd) => this.#ctx.world.disk.changeMeta('fchmod', fd, { kind: 'mode', mode: typeof mode === 'string' ? Number.parseInt(mode, 8) : mode }));
  }

  chown(uid: number, gid: number): Promise<void> {
    return this.#step('fh.chown', this.#name, (fd) => this.#ctx.world.disk.changeMeta('fchown', fd, { kind: 'owner', uid, gid }));
  }

  utimes(atime: number | Date, mtime: number | Date): Promise<void> {
    return this.#step('fh.utimes', this.#name, (fd) => this.#ctx.world.disk.changeMeta('futime', fd, { kind: 'times', atime, mtime }));
  }

  stat(): Promise<unknown> {
    return this.#step('fh.stat', this.#name, (fd) => this.#ctx.world.disk.statOf(fd));
  }

  truncate(length = 0): Promise<void> {
    return this.#step('fh.truncate', `${this.#name} ${length}`, (fd) => this.#ctx.world.disk.handleTruncate(fd, length));
  }

  sync(): Promise<void> {
    return this.#step('fh.sync', this.#name, (fd) => this.#ctx.world.disk.handleSync(fd));
  }

  datasync(): Promise<void> {
    return this.#step('fh.datasync', this.#name, (fd) => this.#ctx.world.disk.handleSync(fd));
  }

  /** Closing a closed FileHandle does nothing, as in node:fs. */
  close(): Promise<void> {
    return this.#ctx.world.syncStep(this.#ctx.proc, 'fh.close', this.#name, () => {
      if (this.#ctx.world.disk.isOpen(this.#file)) this.#ctx.world.disk.handleClose(this.#file.fd);
    });
  }
}
lockServedClass(ServedFileHandle);
