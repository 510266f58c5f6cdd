/**
 * SQLite compiled to WebAssembly (@journeyapps/wa-sqlite 2.0.6, SQLite 3.53): one instance per
 * simulated process, made synchronously (a journal opens a database inside a synchronous call), its
 * memory dying with the process. The package is chosen because its VFS is written in JavaScript
 * with every method SQLite's VFS has — xOpen … xDeviceCharacteristics, and xShmMap, xShmLock,
 * xShmBarrier, xShmUnmap, so WAL works across processes as on Linux — and xRandomness, xSleep and
 * xCurrentTime, so nothing in SQLite reads the real clock or draws real randomness (docs/sqlite.md).
 *
 * Emscripten builds the module asynchronously (`await createWasm()` in its factory); the factory's
 * text is loaded once per thread and that one await made a synchronous instantiation of the
 * compiled WebAssembly module, which is also compiled once per thread.
 *
 * Instances are reused within a thread (newSqlite, releaseSqlite): a process's SQLite is handed
 * back when its simulation ends and the next process to ask gets it restored to the state of a
 * fresh instance — every byte of its memory set to the first instance's right after it was made
 * (the memory past that size, grown since, zeroed) and its stack pointer put back. That is all of
 * its state: the module has two mutable globals, the stack pointer and the high half of a 64-bit
 * result (read only right after a call that sets it), and the glue's JavaScript keeps the
 * registered VFS by its address, which the restored memory gives it again. A 17 MB memory made and
 * dropped at every incarnation cost a third of a SQLite journal's CPU in instantiation and garbage
 * collection, and its worker was recycled every ~40 runs for the external memory it held.
 */
import { readFileSync } from 'node:fs'; // allow-ambient: durasim's own package files, read once per thread
import { createRequire } from 'node:module';
import { invariant } from '../invariant.js';
import { claimMachinery } from '../sandbox/turn.js';

/** Loading the package's files is durasim's own work: in a thread that runs journals it runs as the machinery (sandbox/turn.ts), claimed as this module loads. */
const machinery = claimMachinery();

/** What durasim uses of an instance: the heap, memory management, C calls, the VFS registry. */
export interface SqliteModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  _malloc(size: number): number;
  _free(ptr: number): number;
  _sqlite3_malloc(size: number): number;
  _sqlite3_free(ptr: number): number;
  ccall(name: string, returns: string | null, args: string[], values: unknown[]): unknown;
  cwrap(name: string, returns: string | null, args: string[]): (...values: unknown[]) => unknown;
  UTF8ToString(ptr: number, max?: number): string;
  stringToUTF8(text: string, ptr: number, max: number): void;
  lengthBytesUTF8(text: string): number;
  getValue(ptr: number, type: string): number;
  setValue(ptr: number, value: number, type: string): void;
  vfs_register(vfs: object, makeDefault: boolean): number;
  [name: `_${string}`]: ((...values: number[]) => number) | undefined;
}

type Factory = (arg: { wasmModule: WebAssembly.Module; print?: (text: string) => void; printErr?: (text: string) => void }) => unknown;

let loaded: { factory: Factory; wasm: WebAssembly.Module } | undefined;

/** Replaces `from` by `to` in the factory's text, once; the pinned version's text must hold it. */
function patched(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  invariant(at >= 0, `the SQLite WebAssembly factory has no "${from.slice(0, 40)}" (another version of @journeyapps/wa-sqlite than 2.0.6?)`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function load(): { factory: Factory; wasm: WebAssembly.Module } {
  if (loaded) return loaded;
  return machinery(loadFiles);
}

function loadFiles(): { factory: Factory; wasm: WebAssembly.Module } {
  const require = createRequire(import.meta.url);
  const jsFile = require.resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.mjs');
  const wasmFile = require.resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm');
  let text = readFileSync(jsFile, 'utf8');
  text = patched(text, 'async function(moduleArg = {})', 'function(moduleArg = {})');
  text = patched(
    text,
    'var wasmExports=await createWasm();',
    'var wasmExports=(()=>{const instance=new WebAssembly.Instance(moduleArg.wasmModule,getWasmImports());wasmExports=instance.exports;wasmMemory=wasmExports["pa"];updateMemoryViews();wasmTable=wasmExports["pf"];return wasmExports})();',
  );
  // The stack pointer, read and set (a JavaScript exception thrown through SQLite's frames — a crash at a step — leaves it lowered).
  text = patched(text, 'var stackSave=()=>_emscripten_stack_get_current();', 'var stackSave=()=>_emscripten_stack_get_current();Module["stackSave"]=stackSave;Module["stackRestore"]=stackRestore;');
  text = patched(text, 'export default Module;', 'return Module;');
  text = text.replaceAll('import.meta.url', JSON.stringify(`file://${jsFile}`));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- durasim's own pinned dependency, made synchronous
  const factory = new Function(text)() as Factory;
  loaded = { factory, wasm: new WebAssembly.Module(readFileSync(wasmFile)) };
  return loaded;
}

/**
 * An instance's memory and stack pointer as made, before anything ran in it: what a reused one is
 * restored to; and where its allocator keeps the heap's end (sbrk's break), when found.
 */
interface Clean {
  memory: Uint8Array;
  stack: number;
  /** The break's word, and the break as made. */
  brk: { at: number; made: number } | undefined;
}
let clean: Clean | undefined;
/** Instances handed back, restored when handed out again; at most MAX_SPARE are kept (each holds 17 MB). */
const spares: SqliteModule[] = [];
const MAX_SPARE = 4;
let made = 0;

/** How many instances this thread has made (the rest of newSqlite's answers were reused). */
export function sqliteInstancesMade(): number {
  return made;
}

interface StackAccess {
  stackSave(): number;
  stackRestore(at: number): void;
}

/**
 * The address of the word that holds the heap's break (emscripten's sbrk), found on an instance as
 * made: the word below the stack's top that a 4 MB allocation raises the most, to past that block.
 * Everything an instance writes lies below the break — its data and stack below the heap, the heap
 * below the break, and the allocator never gives memory back (dlmalloc built with
 * MORECORE_CANNOT_TRIM: a freed 4 MB top leaves the break where it is) — so a restore copies only
 * up to the highest break. Undefined when no such word is found: every restore copies all of it.
 */
function findBreak(sqlite: SqliteModule, stackTop: number): number | undefined {
  const words = (): Uint32Array => new Uint32Array(sqlite.HEAPU8.buffer, 0, stackTop >> 2).slice();
  const before = words();
  const size = 4 << 20;
  const block = sqlite._malloc(size);
  const after = words();
  sqlite._free(block);
  let at: number | undefined;
  for (let i = 0; i < after.length; i++) {
    if (after[i] !== before[i] && (at === undefined || (after[i] as number) > (after[at] as number))) at = i;
  }
  if (block === 0 || at === undefined || (after[at] as number) <= block + size || (after[at] as number) > sqlite.HEAPU8.length) return undefined;
  return at * 4;
}

function instantiate(): SqliteModule {
  const { factory, wasm } = load();
  const module = { wasmModule: wasm, print: () => undefined, printErr: () => undefined };
  factory(module);
  made++;
  const sqlite = module as unknown as SqliteModule & StackAccess;
  if (clean === undefined) {
    const image: Clean = { memory: sqlite.HEAPU8.slice(), stack: sqlite.stackSave(), brk: undefined };
    clean = image;
    const at = findBreak(sqlite, image.stack);
    restore(sqlite); // the probe's allocation undone, all of it
    if (at !== undefined) image.brk = { at, made: new Uint32Array(image.memory.buffer, at, 1)[0] as number };
  }
  return sqlite;
}

/** `sqlite` as a fresh instance is: its memory the clean image (zeros past it), its stack pointer where a fresh one's is. */
function restore(sqlite: SqliteModule): void {
  const image = clean as Clean;
  const heap = sqlite.HEAPU8;
  // Nothing above the break was ever written: below it (the break as made at least) is all that can differ.
  const end = image.brk === undefined ? heap.length : Math.min(heap.length, Math.max(sqlite.HEAP32[image.brk.at >> 2] as number, image.brk.made));
  heap.set(image.memory.subarray(0, Math.min(end, image.memory.length)));
  if (end > image.memory.length) heap.fill(0, image.memory.length, end);
  (sqlite as SqliteModule & StackAccess).stackRestore(image.stack);
}

/** A SQLite as fresh as a new instance: its own memory, nothing registered yet (a spare of the thread restored, or a new one). */
export function newSqlite(): SqliteModule {
  const spare = spares.pop();
  if (spare === undefined) return instantiate();
  restore(spare);
  return spare;
}

/** Hands an instance back once nothing can call into it any more (its simulation ended): the next newSqlite may give it out, restored. */
export function releaseSqlite(sqlite: SqliteModule): void {
  if (spares.length < MAX_SPARE && !spares.includes(sqlite)) spares.push(sqlite);
}
