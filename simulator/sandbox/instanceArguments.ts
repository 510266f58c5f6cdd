/**
 * How the shared-object baseline gets an instance of each global class (hiddenIntrinsics.ts
 * throughInstances): what only an instance reaches (an iterator's prototype, a function a getter
 * of the class hands every instance) is put back at every incarnation's start only if the baseline
 * met it. A class made without arguments is made so; every other global class of the Node lines
 * durasim supports is named here, with the arguments of its simplest instance, or with why none is
 * made (it holds a handle of the thread's, warns, or Node makes its instances only itself).
 * instanceArguments.test.ts fails when a global class is made without arguments by neither, so a
 * class a new Node adds is looked at, not skipped. Made once per thread, before any journal runs,
 * as durasim's own work: none of these starts I/O (a stream made is never read or written).
 */

/** Classes made with arguments: their simplest instance's (a blind attack kept a property on what the queuing strategies' `size` getter hands every instance). */
export const MADE_WITH: Readonly<Record<string, () => unknown[]>> = {
  // JavaScript's.
  Promise: () => [() => {}],
  AggregateError: () => [[]],
  DataView: () => [new ArrayBuffer(0)],
  WeakRef: () => [{}],
  FinalizationRegistry: () => [() => {}],
  // Node's web platform classes.
  URL: () => ['file:///'],
  Event: () => ['durasim'],
  CustomEvent: () => ['durasim'],
  MessageEvent: () => ['durasim'], // Node 22 and later (undici's); Node 20's is made without
  CloseEvent: () => ['durasim'],
  ByteLengthQueuingStrategy: () => [{ highWaterMark: 1 }],
  CountQueuingStrategy: () => [{ highWaterMark: 1 }],
  ReadableStreamDefaultReader: () => [new ReadableStream()],
  ReadableStreamBYOBReader: () => [new ReadableStream({ type: 'bytes' })],
  WritableStreamDefaultWriter: () => [new WritableStream()],
  CompressionStream: () => ['gzip'],
  DecompressionStream: () => ['gzip'],
  File: () => [[], 'durasim'],
  PerformanceMark: () => ['durasim'], // made, not marked: nothing joins the timeline
  PerformanceObserver: () => [() => {}], // made, never observing
  Request: () => ['http://localhost/'],
};

/** Classes never made here, and why. */
export const NEVER_MADE: Readonly<Record<string, string>> = {
  Buffer: 'new Buffer() warns (DEP0005)',
  MessageChannel: 'holds a port of the thread',
  MessagePort: 'holds a port of the thread',
  BroadcastChannel: 'holds a port of the thread',
  Worker: 'starts a thread',
  SharedWorker: 'starts a thread',
  WebSocket: 'opens a socket',
  EventSource: 'opens a socket',
  Symbol: 'not a constructor',
  BigInt: 'not a constructor',
  Iterator: 'abstract: made only through a subclass',
  AbortSignal: 'Node makes its instances only itself (an AbortController makes one, and is made without arguments)',
  TransformStreamDefaultController: 'Node makes its instances only itself (a stream made without arguments holds one)',
  WritableStreamDefaultController: 'Node makes its instances only itself (a stream made without arguments holds one)',
  ReadableStreamDefaultController: 'Node makes its instances only itself (a stream made without arguments holds one)',
  ReadableByteStreamController: 'Node makes its instances only itself',
  ReadableStreamBYOBRequest: 'Node makes its instances only itself',
  Performance: 'Node makes its one instance itself (globalThis.performance, in the baseline)',
  PerformanceEntry: 'Node makes its instances only itself',
  PerformanceMeasure: 'Node makes its instances only itself',
  PerformanceObserverEntryList: 'Node makes its instances only itself',
  PerformanceResourceTiming: 'Node makes its instances only itself',
  Crypto: 'Node makes its one instance itself (globalThis.crypto, in the baseline)',
  CryptoKey: 'Node makes its instances only itself',
  SubtleCrypto: 'Node makes its one instance itself (crypto.subtle, in the baseline)',
  Navigator: 'Node makes its one instance itself (globalThis.navigator, in the baseline)',
};

/** The arguments `name`'s instance is made with: none for a class not named here, undefined for one never made. */
export function instanceArguments(name: string): unknown[] | undefined {
  if (Object.hasOwn(NEVER_MADE, name)) return undefined;
  const made = Object.hasOwn(MADE_WITH, name) ? MADE_WITH[name] : undefined;
  return made === undefined ? [] : made();
}
