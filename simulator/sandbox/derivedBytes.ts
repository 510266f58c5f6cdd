/**
 * Deterministic bytes for what a journal (or a module as it loads) draws as randomness: the same
 * seed gives the same bytes, so ids and keys are unique within a run and equal across replays.
 */
import { createHash } from 'node:crypto';

/** `length` bytes derived from `seed` (SHA-256 in counter mode): the same seed, the same bytes. */
export function derivedBytes(seed: string, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let block = 0, at = 0; at < length; block++) at += createHash('sha256').update(`${seed}:${block}`).digest().copy(out, at);
  return out;
}

/** A version-4 UUID made of 16 bytes. */
export function uuidOf(b: Buffer): string {
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
