/**
 * The intrinsics no global names, for the shared-object baseline (sharedBaseline.ts, whose rules
 * hold here): reached through the prototypes of what the language makes, V8's stack frames, and
 * what only an instance of a global class reaches. Called once per thread, before any journal runs.
 */
import { types } from 'node:util';
import { append, dataOf, isObjectLike, keyName } from './bareReads.js';
import { instanceArguments } from './instanceArguments.js';

const { getOwnPropertyDescriptor, getPrototypeOf, hasOwn } = Object;
const { ownKeys, apply } = Reflect;
const { isProxy } = types;

/** The intrinsics no global names: reached through the prototypes of what the language makes. */
export function hiddenIntrinsics(): [string, unknown][] {
  const proto = (value: unknown): unknown => (isObjectLike(value) ? getPrototypeOf(value) : undefined);
  const prototypeOf = (fn: unknown): unknown => (isObjectLike(fn) ? (fn as { prototype?: unknown }).prototype : undefined);
  const arrayIterator = proto([][Symbol.iterator]());
  const generator = proto(function* generator() {});
  const asyncGenerator = proto(async function* asyncGenerator() {});
  const Segmenter = (Intl as { Segmenter?: new () => { segment(text: string): Iterable<unknown> } }).Segmenter;
  const segments = Segmenter === undefined ? undefined : new Segmenter().segment('');
  const Iterator = (globalThis as { Iterator?: { from?: (it: object) => unknown; prototype: { map?: (this: Iterator<unknown>, fn: (x: unknown) => unknown) => unknown } } }).Iterator;
  const helpers = { map: Iterator?.prototype.map, from: Iterator?.from };
  return [
    ['%IteratorPrototype%', proto(arrayIterator)],
    ['%ArrayIteratorPrototype%', arrayIterator],
    ['%MapIteratorPrototype%', proto(new Map()[Symbol.iterator]())],
    ['%SetIteratorPrototype%', proto(new Set()[Symbol.iterator]())],
    ['%StringIteratorPrototype%', proto(''[Symbol.iterator]())],
    ['%RegExpStringIteratorPrototype%', proto(/(?:)/[Symbol.matchAll](''))],
    ['%GeneratorFunction.prototype%', generator],
    ['%GeneratorPrototype%', prototypeOf(generator)],
    ['%AsyncGeneratorFunction.prototype%', asyncGenerator],
    ['%AsyncGeneratorPrototype%', prototypeOf(asyncGenerator)],
    ['%AsyncIteratorPrototype%', proto(prototypeOf(asyncGenerator))],
    ['%AsyncFunction.prototype%', proto(async function asyncFunction() {})],
    ['%TypedArray%', proto(Uint8Array)],
    ['%TypedArray.prototype%', proto(Uint8Array.prototype)],
    // Intl's (a blind attack kept a property on the first): what Intl.Segmenter's segment() returns, and its iterator.
    ['%IntlSegmentsPrototype%', segments === undefined ? undefined : proto(segments)],
    ['%IntlSegmentIteratorPrototype%', segments === undefined ? undefined : proto(segments[Symbol.iterator]())],
    // Iterator helpers (Node 22 and later): what Iterator.prototype.map and Iterator.from return.
    ['%IteratorHelperPrototype%', helpers.map === undefined ? undefined : proto(helpers.map.call([][Symbol.iterator](), (x: unknown) => x))],
    ['%WrapForValidIteratorPrototype%', helpers.from === undefined ? undefined : proto(helpers.from({ next: () => ({ done: true, value: undefined }) }))],
    // V8's stack frames (what Error.prepareStackTrace is handed).
    ['%CallSitePrototype%', callSitePrototype()],
    ...throughInstances(),
  ];
}

/** The prototype of V8's stack frames, as a formatter is handed them. */
function callSitePrototype(): unknown {
  const saved = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const frames = new Error('durasim baseline').stack as unknown;
    return Array.isArray(frames) && frames.length > 0 ? getPrototypeOf(frames[0]) : undefined;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = saved;
  }
}

const functionToString = Function.prototype.toString;
const CLASS_SOURCE = /^class\b|\{ \[native code\] \}$/;
const ITERATING: PropertyKey[] = ['keys', 'values', 'entries', Symbol.iterator, Symbol.asyncIterator];

/**
 * The global classes whose instances throughInstances asks: each global function that is a class
 * (the engine's, or one written as a class: Node's) with a prototype of its own. A plain function
 * (fetch, a helper a library left global) is left out: it would be called, and start work.
 */
export function globalClasses(): [string, new (...args: unknown[]) => unknown, object][] {
  const classes: [string, new (...args: unknown[]) => unknown, object][] = [];
  const names = ownKeys(globalThis);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (typeof name !== 'string') continue;
    let made: unknown;
    try {
      made = (globalThis as Record<string, unknown>)[name]; // a lazy global of Node's loads now, as the baseline's walk would load it
    } catch {
      continue;
    }
    if (typeof made !== 'function' || isProxy(made)) continue;
    const prototype = dataOf(made, 'prototype');
    if (!isObjectLike(prototype) || ownKeys(prototype).length < 2 || !CLASS_SOURCE.test(apply(functionToString, made, []) as string)) continue;
    append(classes, [name, made as new (...args: unknown[]) => unknown, prototype]);
  }
  return classes;
}

/**
 * What only an instance of a global class reaches (a blind attack kept a property on each): the
 * prototypes of the iterators its methods return (URLSearchParams', Headers', a ReadableStream's,
 * made by Node's own modules), the functions of an instance's own accessors (an Error's stack, on
 * V8 12), and a function a getter of the class hands every instance (the queuing strategies'
 * `size`). Each global class is made once, here, with the arguments instanceArguments.ts names
 * (none for most), or not at all where it says so.
 */
function throughInstances(): [string, unknown][] {
  const found: [string, unknown][] = [];
  const classes = globalClasses();
  for (let i = 0; i < classes.length; i++) {
    const [name, made, prototype] = classes[i] as [string, new (...args: unknown[]) => unknown, object];
    let instance: unknown;
    try {
      const args = instanceArguments(name);
      if (args === undefined) continue;
      instance = Reflect.construct(made, args);
    } catch {
      continue;
    }
    if (!isObjectLike(instance)) continue;
    const own = ownKeys(instance);
    for (let j = 0; j < own.length; j++) {
      const descriptor = getOwnPropertyDescriptor(instance, own[j] as PropertyKey);
      if (descriptor === undefined || hasOwn(descriptor, 'value')) continue;
      append(found, [`%${name} instance's ${keyName(own[j] as PropertyKey)} (getter)%`, descriptor.get]);
      append(found, [`%${name} instance's ${keyName(own[j] as PropertyKey)} (setter)%`, descriptor.set]);
    }
    // A function a getter of the class hands every instance (the queuing strategies' size).
    const accessors = ownKeys(prototype);
    for (let j = 0; j < accessors.length; j++) {
      const descriptor = getOwnPropertyDescriptor(prototype, accessors[j] as PropertyKey);
      if (descriptor === undefined || typeof descriptor.get !== 'function') continue;
      try {
        const given = apply(descriptor.get, instance, []);
        if (typeof given === 'function') append(found, [`%${name}.prototype.${keyName(accessors[j] as PropertyKey)} (what its getter gives)%`, given]);
      } catch {
        // a getter this instance cannot answer
      }
    }
    for (let j = 0; j < ITERATING.length; j++) {
      const method = dataOf(prototype, ITERATING[j] as PropertyKey);
      if (typeof method !== 'function') continue;
      try {
        const iterator = apply(method as (...args: unknown[]) => unknown, instance, []);
        if (isObjectLike(iterator)) append(found, [`%${name} ${keyName(ITERATING[j] as PropertyKey)}() prototype%`, getPrototypeOf(iterator)]);
      } catch {
        // not an iterator of its own
      }
    }
  }
  return found;
}
