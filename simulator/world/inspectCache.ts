/**
 * inspect()'s answers kept across the runs of a thread, per journal, by the content of what it
 * read: a journal's inspect() is a function of the files it reads (the per-run cache in
 * inspection.ts already holds it to that within a run), so an image whose files hold the same bytes
 * as one read before — most images, when a check runs the same workload thousands of times — gets
 * the answer read then, without running inspect() again (a SQLite journal's opens a database and
 * runs its recovery: a quarter of its CPU). Only a clean answer is kept: inspect() threw nothing,
 * its records were well formed, it read no store, and it made no call the sandbox serves or refuses
 * beside opening a database on the image (so nothing it did is in the trace, and skipping it
 * changes nothing a run records). The answer given is a copy.
 */
import { createHash } from 'node:crypto';
import type { Records } from '../../model/evidence.js';

export interface CachedRead {
  path: string;
  kind: 'file' | 'dir';
}

/** What one read holds now on the durable image: a file's bytes (undefined: missing), a folder's entries. */
export type ReadContent = (read: CachedRead) => Uint8Array | string[] | undefined;

/** At most this many answers a journal; past it the cache starts again (memory stays bounded over long checks). */
const MAX_ANSWERS = 4096;
/** At most this many distinct lists of reads a journal (each is hashed at every lookup). */
const MAX_READ_LISTS = 8;

export class InspectCache {
  private readonly readLists = new Map<string, CachedRead[]>();
  private readonly answers = new Map<string, Records>();
  hits = 0;

  private static listKey(reads: readonly CachedRead[]): string {
    return reads.map((read) => `${read.kind}:${read.path}`).join('\0');
  }

  /** `salt`: what else the run hands inspect() (its process's environment). */
  constructor(private readonly salt: string) {}

  private contentKey(listKey: string, reads: readonly CachedRead[], content: ReadContent): string {
    const hash = createHash('sha1');
    hash.update(this.salt);
    hash.update('\0');
    hash.update(listKey);
    for (const read of reads) {
      const held = content(read);
      hash.update(held === undefined ? '\0missing' : Array.isArray(held) ? `\0dir:${held.join('/')}` : '\0file:');
      if (held instanceof Uint8Array) hash.update(held);
    }
    return hash.digest('base64');
  }

  /** The answer kept for an image whose reads hold what `content` gives now, with the reads it was read from. */
  lookup(content: ReadContent): { records: Records; reads: CachedRead[] } | undefined {
    for (const [listKey, reads] of this.readLists) {
      const records = this.answers.get(this.contentKey(listKey, reads, content));
      if (records !== undefined) {
        this.hits++;
        return { records: structuredClone(records), reads };
      }
    }
    return undefined;
  }

  /** Keeps a clean answer read from `reads` (each path once, in order). */
  keep(reads: readonly CachedRead[], content: ReadContent, records: Records): void {
    const unique = [...new Map(reads.map((read) => [`${read.kind}:${read.path}`, read])).values()];
    const listKey = InspectCache.listKey(unique);
    if (!this.readLists.has(listKey)) {
      if (this.readLists.size >= MAX_READ_LISTS) return;
      this.readLists.set(listKey, unique);
    }
    if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
    this.answers.set(this.contentKey(listKey, unique, content), structuredClone(records));
  }
}

const caches = new WeakMap<object, Map<string, InspectCache>>();

/** The thread's cache for a journal, by what stands for it across runs (its modules' factory, or the adapter itself), and the environment its runs give inspect(). */
export function inspectCacheOf(journal: object, environment: Record<string, string>): InspectCache {
  const salt = JSON.stringify(Object.entries(environment).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let byEnvironment = caches.get(journal);
  if (byEnvironment === undefined) {
    byEnvironment = new Map();
    caches.set(journal, byEnvironment);
  }
  let cache = byEnvironment.get(salt);
  if (cache === undefined) {
    if (byEnvironment.size >= 16) byEnvironment.clear();
    cache = new InspectCache(salt);
    byEnvironment.set(salt, cache);
  }
  return cache;
}
