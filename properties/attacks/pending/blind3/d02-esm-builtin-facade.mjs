// d02 — Node's ESM facade of a builtin module (the SyntheticModule BuiltinModule#getESMFacade makes
// once a thread): its export NAMES are Object.keys(exports) at the moment the facade is made, and its
// export VALUES are only re-synced on a later public require() of the same id (or
// module.syncBuiltinESMExports, refused). Both live in Node's loader, not on any object.
// Technique: several builtin ids whose exports object is reachable BEFORE the id is ever loaded by
// its own name (node:_stream_passthrough is stream.PassThrough, node:path/win32 is path.win32,
// node:util/types is util.types, ...). The stash adds an enumerable own property 'atkBox' = new Set()
// to that exports object, then import()s the id (import hidden in new Function, as in b09): the first
// import makes the facade, whose 'atkBox' export binding now holds that Set for the thread's life.
// When durasim puts the exports object back (deletes 'atkBox'), the namespace keeps both the name and
// the Set. put(tag) adds the tag to the first live box; get(tag) looks in the first live box. (get
// makes the box too, so whichever runs first in a thread creates it.)
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (import() of a builtin answered with a per-incarnation object,
// or the facade already made before the journal loads, so put fails: ATK-PUT-FAILED), or exit 4 if
// the import / new Function is refused. Exit 0 = a builtin's ESM namespace carried memory.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import stream from 'node:stream';
import path from 'node:path';
import util from 'node:util';
import assert from 'node:assert';

const KEY = 'atkBox';
const CANDIDATES = [
  ['node:_stream_passthrough', () => stream.PassThrough],
  ['node:_stream_transform', () => stream.Transform],
  ['node:_stream_duplex', () => stream.Duplex],
  ['node:_stream_writable', () => stream.Writable],
  ['node:_stream_readable', () => stream.Readable],
  ['node:path/win32', () => path.win32],
  ['node:util/types', () => util.types],
  ['node:assert/strict', () => assert.strict],
  ['node:stream/promises', () => stream.promises],
  ['node:path/posix', () => path.posix],
];
let how;
async function load(spec) {
  try { const m = await new Function('s', 'return import(s)')(spec); how = 'new Function import()'; return m; }
  catch (e) { const m = await import(/* @vite-ignore */ spec); how = 'plain import() (new Function failed: ' + (e?.message ?? e) + ')'; return m; }
}
async function box([spec, exportsOf]) {
  try {
    const e = exportsOf();
    if (e && !Object.prototype.hasOwnProperty.call(e, KEY)) { try { e[KEY] = new Set(); } catch {} }
    const ns = await load(spec);
    const b = ns[KEY];
    return b && typeof b.has === 'function' && typeof b.add === 'function' ? b : undefined;
  } catch { return undefined; }
}
async function firstBox() { for (const c of CANDIDATES) { const b = await box(c); if (b) return b; } return undefined; }
export const stash = {
  async put(tag) { const b = await firstBox(); if (!b) throw new Error('no builtin facade took the box'); b.add(tag); },
  async get(tag) { const b = await firstBox(); return b && b.has(tag) ? 'alive' : undefined; },
  how: () => how,
};
export default memoryJournal('d02-esm-builtin-facade', verified('d02-esm-builtin-facade', stash));
