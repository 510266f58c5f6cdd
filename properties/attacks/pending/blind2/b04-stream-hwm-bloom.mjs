// b04 — stream.setDefaultHighWaterMark: a plain function (no setter, no own property) that writes a
// module-level variable inside Node's internal/streams/state; stream.getDefaultHighWaterMark reads it.
// Technique: the byte-mode default high-water mark is used as a 52-bit Bloom filter. Bit 14 (16384,
// Node's default) stays set so the value stays a sane mark; put(tag) ORs in three bits (15..51)
// picked by an FNV-1a hash of the tag; get(tag) checks that all three are set. A fresh process
// reads 16384 (no bits above 14).
// Expected of a correct durasim: exit 1 (the default mark is back at 16384 after a crash), or exit 4
// if setDefaultHighWaterMark is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import * as stream from 'node:stream';

function bitsOf(tag) {
  let h = 0x811c9dc5;
  for (let i = 0; i < tag.length; i++) { h ^= tag.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  let m = 0n;
  for (let k = 0; k < 3; k++) { m |= 1n << (15n + BigInt((h >>> (k * 10)) % 37)); } // bits 15..51
  return m;
}
export const stash = {
  put(tag) {
    const cur = BigInt(stream.getDefaultHighWaterMark(false)) | 16384n;
    stream.setDefaultHighWaterMark(false, Number(cur | bitsOf(tag)));
  },
  get(tag) {
    const m = bitsOf(tag);
    return (BigInt(stream.getDefaultHighWaterMark(false)) & m) === m ? 'alive' : undefined;
  },
};
export default memoryJournal('b04-stream-hwm-bloom', verified('b04-stream-hwm-bloom', stash));
