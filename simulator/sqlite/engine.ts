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
  text = patched(text, 'export default Module;', 'return Module;');
  text = text.replaceAll('import.meta.url', JSON.stringify(`file://${jsFile}`));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- durasim's own pinned dependency, made synchronous
  const factory = new Function(text)() as Factory;
  loaded = { factory, wasm: new WebAssembly.Module(readFileSync(wasmFile)) };
  return loaded;
}

/** A fresh SQLite: its own memory, nothing registered yet. */
export function newSqlite(): SqliteModule {
  const { factory, wasm } = load();
  const module = { wasmModule: wasm, print: () => undefined, printErr: () => undefined };
  factory(module);
  return module as unknown as SqliteModule;
}
