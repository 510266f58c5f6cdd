/**
 * The task's access token, watched where it must never land: every byte a worker writes to the
 * disk (checked with the bytes around it, so a token split across two writes is seen too), every
 * name it gives a file, and every value or key it puts in the store. A sighting is where and by
 * whom — never the token itself (no-secret-persisted judges them).
 */
import type { StoreCall } from '../store/store.js';

export interface SecretSighting {
  /** Trace position of the step that wrote it. */
  seq: number;
  /** worker-<pid>#<incarnation>, or whoever else wrote it. */
  by: string;
  where: 'disk' | 'store';
  /** The file (relative to the work folder) or the store key. */
  name: string;
}

export class SecretWatch {
  readonly sightings: SecretSighting[] = [];
  private readonly token: Buffer;

  constructor(token: string, private readonly who: () => { seq: number; by: string }) {
    this.token = Buffer.from(token, 'utf8');
  }

  /** `length` bytes were written at offset `at` of the file now holding `content`. */
  sawWrite(name: string, content: Buffer, at: number, length: number): void {
    const from = Math.max(0, at - this.token.length + 1);
    if (content.subarray(from, at + length + this.token.length - 1).includes(this.token)) this.saw('disk', name);
  }

  /** A file or folder was created, or a name given to one. */
  sawName(name: string): void {
    if (Buffer.from(name, 'utf8').includes(this.token)) this.saw('disk', name);
  }

  /** The store's applied writes, after the run: a key or a value that holds the token. */
  sawStore(calls: readonly StoreCall[]): void {
    this.sightings.push(...secretInStore(calls, this.token.toString('utf8')));
  }

  private saw(where: 'disk', name: string): void {
    const { seq, by } = this.who();
    this.sightings.push({ seq, by, where, name: name.includes(this.token.toString('utf8')) ? '(a file name)' : name });
  }
}

/** The store's applied writes whose key or value holds `token` (the simulated run's and a confirmation's). */
export function secretInStore(calls: readonly StoreCall[], token: string): SecretSighting[] {
  const out: SecretSighting[] = [];
  for (const call of calls) {
    const r = call.request;
    if (!call.applied || r.op !== 'put' || !(r.key.includes(token) || r.value.includes(token))) continue;
    out.push({ seq: call.seq, by: call.by, where: 'store', name: r.key.includes(token) ? '(a key)' : r.key });
  }
  return out;
}
