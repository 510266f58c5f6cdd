/**
 * node:fs/promises's FileHandle on the simulated disk: every method is one scheduled step on the
 * handle's open file; reads and writes start at the handle's position unless they name one (on a
 * handle opened for append a write goes to the end), writeFile and appendFile never truncate,
 * readFile reads from the position to the end, and a closed handle stays closed (fd -1).
 */
import type { OpenFile } from '../../disk/disk.js';
import { preview, rel } from '../../world/trace.js';
import { bytesOf, decoded, encodingOf, positionOf } from './fsArgs.js';
import type { ServeContext } from './serveContext.js';

export class ServedFileHandle {
  constructor(
    private readonly ctx: ServeContext,
    private readonly file: OpenFile,
  ) {}

  get fd(): number {
    return this.ctx.world.disk.isOpen(this.file) ? this.file.fd : -1;
  }

  private get name(): string {
    return this.file.isDirectory ? `${rel(this.file.path)}/` : rel(this.file.path);
  }

  private step<T>(op: string, detail: string, run: (fd: number) => T): Promise<T> {
    return this.ctx.world.syncStep(this.ctx.proc, op, detail, () => run(this.ctx.world.disk.fdOf(this.file)));
  }

  private writeStep(op: string, data: unknown, options: unknown): Promise<void> {
    const bytes = bytesOf(data, encodingOf(options));
    return this.step(op, `${this.name} ${preview(bytes.toString('utf8'))}`, (fd) => {
      this.ctx.world.notePayload(bytes);
      this.ctx.world.disk.handleWrite(fd, bytes);
    });
  }

  readFile(options?: unknown): Promise<Buffer | string> {
    return this.step('fh.readFile', this.name, (fd) => decoded(this.ctx.world.disk.handleRead(fd), encodingOf(options)));
  }

  writeFile(data: unknown, options?: unknown): Promise<void> {
    return this.writeStep('fh.writeFile', data, options);
  }

  appendFile(data: unknown, options?: unknown): Promise<void> {
    return this.writeStep('fh.appendFile', data, options);
  }

  /** read(buffer, offset, length, position), read({ buffer, offset, length, position }) or read(). */
  read(first?: unknown, offset?: number, length?: number, position?: unknown): Promise<{ bytesRead: number; buffer: Uint8Array }> {
    const options = ArrayBuffer.isView(first) ? { buffer: first, offset, length, position } : ((first ?? {}) as { buffer?: Uint8Array; offset?: number; length?: number; position?: unknown });
    const buffer = (options.buffer as Uint8Array | undefined) ?? Buffer.alloc(16384);
    const at = options.offset ?? 0;
    const count = options.length ?? buffer.byteLength - at;
    return this.step('fh.read', this.name, (fd) => {
      if (count === 0) return { bytesRead: 0, buffer }; // as node:fs: an open handle, no read at all
      const bytes = this.ctx.world.disk.handleReadAt(fd, count, positionOf(options.position));
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
    return this.step('fh.write', `${this.name} ${preview(bytes.toString('utf8'))}`, (fd) => {
      this.ctx.world.notePayload(bytes);
      this.ctx.world.disk.handleWrite(fd, bytes, at, true);
      return { bytesWritten: bytes.length, buffer: data };
    });
  }

  stat(): Promise<unknown> {
    return this.step('fh.stat', this.name, (fd) => this.ctx.world.disk.statOf(fd));
  }

  truncate(length = 0): Promise<void> {
    return this.step('fh.truncate', `${this.name} ${length}`, (fd) => this.ctx.world.disk.handleTruncate(fd, length));
  }

  sync(): Promise<void> {
    return this.step('fh.sync', this.name, (fd) => this.ctx.world.disk.handleSync(fd));
  }

  datasync(): Promise<void> {
    return this.step('fh.datasync', this.name, (fd) => this.ctx.world.disk.handleSync(fd));
  }

  /** Closing a closed FileHandle does nothing, as in node:fs. */
  close(): Promise<void> {
    return this.ctx.world.syncStep(this.ctx.proc, 'fh.close', this.name, () => {
      if (this.ctx.world.disk.isOpen(this.file)) this.ctx.world.disk.handleClose(this.file.fd);
    });
  }
}
