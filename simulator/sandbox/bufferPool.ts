/**
 * Node's Buffer pool, taken away while the sandbox is installed. Buffer.from(string),
 * Buffer.from(array) and small allocations slice one 8 KiB ArrayBuffer per thread, and a buffer's
 * `.buffer` shows all of it: what durasim, an earlier incarnation or an earlier scenario wrote
 * there, and memory Node never cleared when it made a new pool. With the pool's size 0 every
 * buffer has an ArrayBuffer of its own, cleared or filled, so what a journal reads through
 * `.buffer` is what it wrote; Buffer.poolSize reads 0 and a write to it changes nothing (Node
 * reads it at every allocation). SlowBuffer, which hands out memory Node never cleared, is served
 * cleared under a turn, as Buffer.allocUnsafe is (guardGlobals.ts). Returns restore callbacks.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { turnHolder } from './turn.js';

type Restore = () => void;

function noPool(): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(Buffer, 'poolSize');
  if (!descriptor?.configurable) return undefined;
  Object.defineProperty(Buffer, 'poolSize', { configurable: true, enumerable: descriptor.enumerable ?? true, get: () => 0, set: () => {} });
  return () => Object.defineProperty(Buffer, 'poolSize', descriptor);
}

function clearedSlowBuffer(): Restore | undefined {
  const buffer = createRequire(import.meta.url)('node:buffer') as Record<string, unknown>; // allow-ambient: patched, not called
  const real = buffer.SlowBuffer;
  if (typeof real !== 'function') return undefined;
  buffer.SlowBuffer = Object.assign(function SlowBuffer(this: unknown, size: number): Buffer {
    return turnHolder() === null ? (real as (size: number) => Buffer).call(this, size) : Buffer.alloc(size);
  }, real);
  syncBuiltinESMExports();
  return () => {
    buffer.SlowBuffer = real;
    syncBuiltinESMExports();
  };
}

export function noBufferPool(): Restore[] {
  const restores: Restore[] = [];
  for (const restore of [noPool(), clearedSlowBuffer()]) if (restore) restores.push(restore);
  return restores;
}
