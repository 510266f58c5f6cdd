/**
 * The durable image of the disk: what a machine crash would leave (see the rules at the top of
 * disk.ts). Kept incrementally — byte chunks per inode, entry maps per folder — under inode ids of
 * the disk's own, and materialised only when a crash or a view reads it. `version` is bumped at
 * every change, so readers can tell an unchanged image without reading it.
 */
import { posix } from 'node:path';
import type { DiskView } from '../../model/contract/contract.js';

/** A file's owner and mode, as the durable image keeps them once an fsync of the file made them durable. */
export interface DurableMeta {
  mode: number;
  uid: number;
  gid: number;
}

export class DurableImage {
  /** Per file id: its mode and owner, where a chmod or chown was made durable by an fsync of the file (else a crash leaves the defaults). */
  readonly meta = new Map<number, DurableMeta>();
  /** Per folder id: name → child id. */
  readonly entries = new Map<number, Map<string, number>>();
  private readonly data = new Map<number, Buffer[]>();
  readonly kinds = new Map<number, 'file' | 'dir'>();
  /** Per inode: the version at which its durable bytes last changed. */
  private readonly dataVersion = new Map<number, number>();
  /** Bumped whenever the image changes. */
  version = 0;
  rootIno = 0;

  clear(): void {
    this.version++;
    this.meta.clear();
    this.entries.clear();
    this.data.clear();
    this.kinds.clear();
    this.dataVersion.clear();
  }

  length(ino: number): number {
    return (this.data.get(ino) ?? []).reduce((n, chunk) => n + chunk.length, 0);
  }

  bytes(ino: number): Buffer {
    const chunks = this.data.get(ino) ?? [];
    if (chunks.length <= 1) return chunks[0] ?? Buffer.alloc(0);
    const joined = Buffer.concat(chunks);
    this.data.set(ino, [joined]);
    return joined;
  }

  /** The file's durable bytes become `bytes`. */
  setBytes(ino: number, bytes: Buffer): void {
    this.data.set(ino, [bytes]);
    this.dataVersion.set(ino, ++this.version);
  }

  /** `chunks` reach the disk after the file's durable bytes. */
  appendBytes(ino: number, chunks: Buffer[]): void {
    const have = this.data.get(ino) ?? [];
    have.push(...chunks);
    this.data.set(ino, have);
    this.dataVersion.set(ino, ++this.version);
  }

  /** A folder's entries become `entries`; returns whether they changed. */
  setEntries(ino: number, entries: Map<string, number>): boolean {
    const before = this.entries.get(ino);
    const changed = before === undefined || before.size !== entries.size || [...entries].some(([name, child]) => before.get(name) !== child);
    if (changed) this.version++;
    this.entries.set(ino, entries);
    return changed;
  }

  lookup(abs: string): number | undefined {
    let ino: number | undefined = this.rootIno;
    for (const part of abs.split('/').filter(Boolean)) {
      ino = this.entries.get(ino)?.get(part);
      if (ino === undefined) return undefined;
    }
    return ino;
  }

  walk(visit: (path: string, ino: number, kind: 'file' | 'dir') => void, ino = this.rootIno, path = '/'): void {
    for (const [name, child] of this.entries.get(ino) ?? []) {
      const childPath = posix.join(path, name);
      const kind = this.kinds.get(child) ?? 'file';
      visit(childPath, child, kind);
      if (kind === 'dir') this.walk(visit, child, childPath);
    }
  }

  /** The image as a read-only view; `resolve` makes a journal's path absolute. */
  view(dir: string, resolve: (path: string) => string): DiskView {
    return {
      dir,
      readFile: (path) => {
        const ino = this.lookup(resolve(path));
        return ino !== undefined && this.kinds.get(ino) === 'file' ? this.bytes(ino).toString('utf8') : undefined;
      },
      readdir: (path) => {
        const ino = this.lookup(resolve(path));
        return ino === undefined ? [] : [...(this.entries.get(ino)?.keys() ?? [])].sort();
      },
    };
  }

  /** What the image holds at `abs`, as a stamp: equal stamps mean equal bytes (a file) or equal entries (a folder). */
  stamp(abs: string, kind: 'file' | 'dir'): string {
    const ino = this.lookup(abs);
    if (ino === undefined) return '-';
    if (kind === 'file') return `${ino}:${this.dataVersion.get(ino) ?? 0}`;
    return [...(this.entries.get(ino) ?? [])].map(([name, child]) => `${name}=${child}`).join('/');
  }
}
