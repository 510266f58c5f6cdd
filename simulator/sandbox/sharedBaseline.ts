/**
 * The baseline of the objects every simulated process of a thread shares, and what joins it: what
 * a restore (sharedObjects.ts, whose rules hold here too) puts each of them back to. Taken once per
 * thread, before any incarnation (takeBaseline); a builtin module joins when it is first handed to
 * a journal (trackBuiltin). Written as the restore is: nothing a journal can replace is called
 * (every function it uses was captured when this module loaded, no iterator, no [[Set]]).
 */
import { types } from 'node:util';
import { isLockAccessor } from './lockIntrinsics.js';


export interface Entry {
  readonly target: object;
  readonly name: string;
  /** Own keys and descriptors (prototype-less) as the baseline had them, side by side. */
  readonly keys: PropertyKey[];
  readonly descriptors: PropertyDescriptor[];
  /** The writable data properties' keys and values: what the quick look compares (a read-only one changes only by a definition). */
  readonly dataKeys: PropertyKey[];
  readonly dataValues: unknown[];
  /** How many enumerable string keys and symbol keys it had: what the quick look counts. */
  readonly enumerable: number;
  readonly symbols: number;
  readonly proto: object | null;
  readonly extensible: boolean;
  /** Something was defined on it since the last look: the next look compares every descriptor. */
  defined: boolean;
}

/** An accessor pair with state behind it: the value its getter gave at the baseline, put back by its setter. */
export interface Setting {
  readonly target: object;
  readonly key: PropertyKey;
  readonly name: string;
  readonly get: () => unknown;
  readonly set: (value: unknown) => void;
  readonly value: unknown;
}

/** A Set or a Map of durasim's own modules (trackOwnModule): its members as the baseline had them, in order (a Map's values beside its keys). */
export interface Collection {
  readonly target: Set<unknown> | Map<unknown, unknown>;
  readonly name: string;
  readonly map: boolean;
  readonly keys: unknown[];
  readonly values: unknown[];
}

// Captured when this module loads, before any journal code: a journal may replace any of them.
const { getOwnPropertyDescriptor, getOwnPropertySymbols: symbolsOf, keys: keysOf, getPrototypeOf, setPrototypeOf, isExtensible, isFrozen, defineProperty, hasOwn } = Object;
const { ownKeys, apply } = Reflect;
const { isArray } = Array;
const stringSlice = String.prototype.slice;
const weakSetHas = WeakSet.prototype.has;
const weakSetAdd = WeakSet.prototype.add;
const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;
const { isProxy, isSet, isMap } = types;
const setForEach = Set.prototype.forEach;
const mapForEach = Map.prototype.forEach;
const OBJECT_PROTOTYPE = Object.prototype;

let entries: Entry[] | undefined;
const settings: Setting[] = [];
const collections: Collection[] = [];
const tracked = new WeakSet<object>();
const entryOf = new WeakMap<object, Entry>();

function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Appends without [[Set]] (an accessor a journal put on Array.prototype's indexes never runs). */
export function append<T>(list: T[], value: T): void {
  defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
}

/** A descriptor with no prototype: reading or defining it reads nothing a journal put on Object.prototype. */
function bare(descriptor: PropertyDescriptor | undefined): PropertyDescriptor | undefined {
  if (descriptor !== undefined) setPrototypeOf(descriptor, null);
  return descriptor;
}

export function keyName(key: PropertyKey): string {
  return typeof key === 'symbol' ? String(key) : `${key as string | number}`;
}

/** The own data property `key` of `target`, read without running any code (undefined for an accessor). */
function dataOf(target: object, key: PropertyKey): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && hasOwn(descriptor, 'value') ? descriptor.value : undefined;
}

/** A function with nothing of its own but its name, length and prototype: not worth a look every incarnation. */
function plainFunction(fn: object): boolean {
  if (typeof fn !== 'function') return false;
  const keys = ownKeys(fn);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key !== 'length' && key !== 'name' && key !== 'prototype' && key !== 'caller' && key !== 'arguments') return false;
  }
  return true;
}

/** A class's prototype that holds more than its constructor: methods a journal could replace. */
function classPrototype(fn: object): object | undefined {
  if (typeof fn !== 'function') return undefined;
  const proto = dataOf(fn, 'prototype');
  if (!isObjectLike(proto) || isProxy(proto)) return undefined;
  const keys = ownKeys(proto);
  for (let i = 0; i < keys.length; i++) if (keys[i] !== 'constructor') return proto;
  return undefined;
}

/**
 * Adds `target` to the baseline as it is now. Written as restoreShared is (nothing a journal can
 * replace is called): a builtin joins when a journal's module first requires it, and an earlier
 * module of the same journal may have replaced Array.prototype.push by then.
 */
function track(target: object, name: string, list: Entry[]): void {
  if (apply(weakSetHas, tracked, [target]) || isProxy(target)) return;
  apply(weakSetAdd, tracked, [target]);
  if (isFrozen(target)) return; // nothing to change, nothing to look at (process.config, os.constants)
  // Node's lazily loaded properties define themselves when first read: loaded now, not into a
  // difference later. (RegExp's legacy statics, the last match of any expression, keep no state.)
  const stateful = target !== RegExp;
  let keys = ownKeys(target);
  for (let i = 0; stateful && i < keys.length; i++) {
    const descriptor = getOwnPropertyDescriptor(target, keys[i] as PropertyKey);
    if (descriptor === undefined || !hasOwn(descriptor, 'get') || !descriptor.get || !descriptor.set || isLockAccessor(descriptor.get)) continue;
    try {
      apply(descriptor.get, target, []);
    } catch {
      // left as it is
    }
  }
  const entry: Entry = { target, name, keys: [], descriptors: [], dataKeys: [], dataValues: [], enumerable: keysOf(target).length, symbols: symbolsOf(target).length, proto: getPrototypeOf(target) as object | null, extensible: isExtensible(target), defined: false };
  const kept: [string, unknown][] = [];
  keys = ownKeys(target);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    const descriptor = bare(getOwnPropertyDescriptor(target, key)) as PropertyDescriptor;
    append(entry.keys, key);
    append(entry.descriptors, descriptor);
    if (hasOwn(descriptor, 'value')) {
      if (!descriptor.writable) continue;
      append(entry.dataKeys, key);
      append(entry.dataValues, descriptor.value);
      continue;
    }
    if (!stateful || !descriptor.get || !descriptor.set || isLockAccessor(descriptor.get)) continue;
    try {
      const value = apply(descriptor.get, target, []);
      append(settings, { target, key, name: `${name}.${keyName(key)}`, get: descriptor.get, set: descriptor.set, value });
      append(kept, [`${name}.${keyName(key)}`, value]);
    } catch {
      // A getter that throws (Function.prototype.caller) keeps no state to put back.
    }
  }
  apply(weakMapSet, entryOf, [target, entry]);
  append(list, entry);
  // What a state-keeping accessor gives may be an object it keeps (util.inspect.defaultOptions): its own properties too.
  for (let i = 0; i < kept.length; i++) {
    const pair = kept[i] as [string, unknown];
    const value = pair[1];
    if (typeof value === 'object' && value !== null && getPrototypeOf(value) === OBJECT_PROTOTYPE) track(value, pair[0], list);
  }
}

/** `value` and what hangs on it, `depth` levels of data properties down (class prototypes always). */
function trackValue(value: unknown, name: string, depth: number, list: Entry[]): void {
  // An array is data (process.argv, process.moduleLoadList, which Node itself grows), not an API.
  if (!isObjectLike(value) || apply(weakSetHas, tracked, [value]) || isProxy(value) || isArray(value)) return;
  if (!plainFunction(value)) track(value, name, list);
  const proto = classPrototype(value);
  if (proto) track(proto, `${name}.prototype`, list);
  if (depth === 0) return;
  const keys = ownKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    if (key !== 'prototype' && key !== 'constructor') trackValue(dataOf(value, key), `${name}.${keyName(key)}`, depth - 1, list);
  }
}

/** The intrinsics no global names: reached through the prototypes of what the language makes. */
function hiddenIntrinsics(): [string, unknown][] {
  const proto = (value: unknown): unknown => (isObjectLike(value) ? getPrototypeOf(value) : undefined);
  const prototypeOf = (fn: unknown): unknown => (isObjectLike(fn) ? (fn as { prototype?: unknown }).prototype : undefined);
  const arrayIterator = proto([][Symbol.iterator]());
  const generator = proto(function* generator() {});
  const asyncGenerator = proto(async function* asyncGenerator() {});
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
  ];
}

/** Whether the baseline is taken. */
export function hasBaseline(): boolean {
  return entries !== undefined;
}

/** How many objects, properties and state-keeping accessors a restore looks at (for the bench and the tests). */
export function sharedCounts(): { objects: number; properties: number; accessors: number } {
  return { objects: entries?.length ?? 0, properties: entries?.reduce((sum, e) => sum + e.keys.length, 0) ?? 0, accessors: settings.length };
}

/** Takes the thread's baseline (once): globalThis and what it holds, process and what it holds, and the hidden intrinsics. */
export function takeBaseline(): void {
  if (entries !== undefined) return;
  const list: Entry[] = [];
  track(globalThis, 'globalThis', list);
  trackValue(process, 'process', 1, list);
  // What process inherits (EventEmitter.prototype) and its classes (EventEmitter.defaultMaxListeners).
  let depth = 0;
  for (let proto = getPrototypeOf(process) as object | null; proto !== null && proto !== OBJECT_PROTOTYPE; proto = getPrototypeOf(proto) as object | null) {
    const ctor = dataOf(proto, 'constructor');
    const name = typeof ctor === 'function' && typeof dataOf(ctor, 'name') === 'string' && dataOf(ctor, 'name') !== '' ? (dataOf(ctor, 'name') as string) : `process${'.__proto__'.repeat(++depth)}`;
    track(proto, `${name}.prototype`, list);
    trackValue(ctor, name, 0, list);
  }
  for (const key of ownKeys(globalThis)) {
    const descriptor = getOwnPropertyDescriptor(globalThis, key) as PropertyDescriptor;
    const value = 'value' in descriptor ? (descriptor.value as unknown) : descriptor.get ? apply(descriptor.get, globalThis, []) : undefined;
    trackValue(value, keyName(key), 1, list);
  }
  for (const [name, value] of hiddenIntrinsics()) trackValue(value, name, 0, list);
  trackChains(list, 0);
  entries = list;
}

/** Every object on the prototype chain of one in `list` (from `from` on) joins it: the quick look may read through them. */
function trackChains(list: Entry[], from: number): void {
  for (let i = from; i < list.length; i++) {
    const entry = list[i] as Entry;
    for (let proto = entry.proto; proto !== null && !(apply(weakSetHas, tracked, [proto]) as boolean); proto = getPrototypeOf(proto) as object | null) {
      if (isProxy(proto)) break;
      track(proto, `${entry.name}.__proto__`, list);
    }
  }
}

/** A builtin module's exports, handed to a journal: tracked from now on (with its sub-objects and class prototypes), once a baseline exists. */
export function trackBuiltin(id: string, exports: unknown): void {
  if (entries === undefined || !isObjectLike(exports) || apply(weakSetHas, tracked, [exports])) return;
  const from = entries.length;
  trackValue(exports, apply(stringSlice, id, [0, 5]) === 'node:' ? (apply(stringSlice, id, [5]) as string) : id, 1, entries);
  trackChains(entries, from);
}

/**
 * One of durasim's own modules handed to a journal (its exports, as a namespace): tracked from now on like a builtin's, and
 * more closely: everything reachable from its exports through own properties (data and accessor functions), prototypes and
 * the members of a Set or Map (trackOwnTree). A builtin's functions and arrays are left out as API and data the runtime
 * grows, and only two levels of its objects are looked at; durasim's modules are all data and code of durasim's, so a
 * journal that keeps "the keys this process sent" on an exported function, on an object in an exported array, on a method
 * of an exported class or in an exported Set must see a crash forget it.
 */
export function trackOwnModule(id: string, namespace: unknown): void {
  if (entries === undefined || !isObjectLike(namespace) || apply(weakSetHas, tracked, [namespace])) return;
  const list = entries;
  const from = list.length;
  apply(weakSetAdd, tracked, [namespace]);
  const keys = ownKeys(namespace);
  const roots: [unknown, string][] = [];
  for (let i = 0; i < keys.length; i++) append(roots, [dataOf(namespace, keys[i] as PropertyKey), `${id}.${keyName(keys[i] as PropertyKey)}`]);
  trackOwnTree(roots, list);
  trackChains(list, from);
}

/** Every object reachable from `roots` that no restore looks at yet, breadth first: tracked, its members too where it is a Set or a Map. */
function trackOwnTree(roots: [unknown, string][], list: Entry[]): void {
  const queue = roots;
  for (let at = 0; at < queue.length; at++) {
    const [value, name] = queue[at] as [unknown, string];
    if (!isObjectLike(value) || isProxy(value) || apply(weakSetHas, tracked, [value])) continue;
    track(value, name, list);
    if (isSet(value) || isMap(value)) trackMembers(value as Set<unknown> | Map<unknown, unknown>, name, queue);
    const proto = getPrototypeOf(value) as object | null;
    if (proto !== null) append(queue, [proto, `${name}.__proto__`]);
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as PropertyKey;
      const descriptor = bare(getOwnPropertyDescriptor(value, key));
      if (descriptor === undefined) continue;
      const child = `${name}.${keyName(key)}`;
      if (hasOwn(descriptor, 'value')) append(queue, [descriptor.value, child]);
      else {
        append(queue, [descriptor.get, `${child} (getter)`]);
        append(queue, [descriptor.set, `${child} (setter)`]);
      }
    }
  }
}

/** A Set's or Map's members as they are now: what a restore compares and puts back (a property walk never sees them). */
function trackMembers(target: Set<unknown> | Map<unknown, unknown>, name: string, queue: [unknown, string][]): void {
  const map = isMap(target);
  const collection: Collection = { target, name, map, keys: [], values: [] };
  apply(map ? mapForEach : setForEach, target, [
    (value: unknown, key: unknown) => {
      append(collection.keys, key);
      append(collection.values, value);
      append(queue, [key, `${name} (a member)`]);
      if (map) append(queue, [value, `${name} (a member's value)`]);
    },
  ]);
  append(collections, collection);
}

/** Whether `target` is one of the shared objects a restore puts back. */
export function isShared(target: unknown): boolean {
  return isObjectLike(target) && (apply(weakSetHas, tracked, [target]) as boolean);
}

/** A property is being defined on `target` (Object.defineProperty and the like): the next restore looks at it whole. */
export function noteDefined(target: unknown): void {
  const entry = isObjectLike(target) ? (apply(weakMapGet, entryOf, [target]) as Entry | undefined) : undefined;
  if (entry) entry.defined = true;
}

/** The baseline's objects (undefined until it is taken), for the restore. */
export function baselineEntries(): Entry[] | undefined {
  return entries;
}

/** The Sets and Maps of durasim's own modules a journal was handed, for the restore. */
export function baselineCollections(): Collection[] {
  return collections;
}

/** The baseline's state-keeping accessors, for the restore. */
export function baselineSettings(): Setting[] {
  return settings;
}
