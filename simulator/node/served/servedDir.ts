/**
 * node:fs's Dir (fs.opendir, fs.opendirSync, fs.promises.opendir) on the simulated disk. The
 * folder's names are read when it is opened (Node reads them in batches from the kernel: names
 * made or removed after the open may or may not show; here they do not); each entry is handed out
 * by a step of its own — dir.read() a scheduled one, dir.readSync() an atomic one — and its type is
 * looked up then. A closed Dir refuses further reads and closes as Node's does (ERR_DIR_CLOSED).
 */
import { posix } from 'node:path';
import { atomicStep } from '../../world/atomicStep.js';
import { rel } from '../../world/trace.js';
import { lockServedClass } from '../../sandbox/lockServedClass.js';
import { dirent, type DirentLike } from './fsArgs.js';
import { asCaller, type ServeContext } from './serveContext.js';

const closedError = (): Error => Object.assign(new Error('Directory handle was closed'), { code: 'ERR_DIR_CLOSED' });

export class ServedDir {
  #next = 0;
  #closed = false;

  // What it serves with is private (#): the journal holds the handle, and a property would hand it durasim's world.
  readonly #ctx: ServeContext;
  readonly #abs: string;
  readonly #names: readonly string[];

  constructor(
    ctx: ServeContext,
    /** The folder as the journal named it (Node's dir.path). */
    readonly path: string,
    abs: string,
    names: readonly string[],
  ) {
    this.#ctx = ctx;
    this.#abs = abs;
    this.#names = names;
  }

  get #detail(): string {
    return `${rel(this.#abs)}/`;
  }

  /** The next entry, or null at the end. */
  #take(): DirentLike | null {
    if (this.#closed) throw closedError();
    const name = this.#names[this.#next];
    if (name === undefined) return null;
    this.#next++;
    const disk = this.#ctx.world.disk;
    const child = posix.join(this.#abs, name);
    return dirent(name, this.path, disk.exists(child) && disk.statOf(child, false).isDirectory());
  }

  #done(): void {
    if (this.#closed) throw closedError();
    this.#closed = true;
  }

  readSync(): DirentLike | null {
    return atomicStep(this.#ctx.world, this.#ctx.proc, 'dir.readSync', this.#detail, () => this.#take());
  }

  read(callback?: (error: Error | null, entry?: DirentLike | null) => void): Promise<DirentLike | null> | undefined {
    const step = this.#ctx.world.syncStep(this.#ctx.proc, 'dir.read', this.#detail, () => this.#take());
    if (callback === undefined) return step;
    step.then(
      (entry) => asCaller(this.#ctx, () => callback(null, entry)),
      (error: Error) => asCaller(this.#ctx, () => callback(error)),
    );
    return undefined;
  }

  closeSync(): void {
    atomicStep(this.#ctx.world, this.#ctx.proc, 'dir.closeSync', this.#detail, () => this.#done());
  }

  close(callback?: (error: Error | null) => void): Promise<void> | undefined {
    const step = this.#ctx.world.syncStep(this.#ctx.proc, 'dir.close', this.#detail, () => this.#done());
    if (callback === undefined) return step;
    step.then(
      () => asCaller(this.#ctx, () => callback(null)),
      (error: Error) => asCaller(this.#ctx, () => callback(error)),
    );
    return undefined;
  }

  /** for await (const entry of dir): every entry, then the Dir closes itself (as Node's does). */
  async *[Symbol.asyncIterator](): AsyncGenerator<DirentLike> {
    try {
      for (let entry = await this.read(); entry !== null && entry !== undefined; entry = await this.read()) yield entry;
    } finally {
      if (!this.#closed) await this.close();
    }
  }
}
lockServedClass(ServedDir);
