/**
 * The baseline of the objects every simulated process of a thread shares, and what joins it: what
 * a restore (sharedObjects.ts, whose rules hold here too) puts each of them back to. Taken once per
 * thread, before any incarnation (takeBaseline); a builtin module joins when it is first handed to
 * a journal (trackBuiltin). Written as the restore is: nothing a journal can replace is called
 * (every function it uses was captured when this module loaded, no iterator, no [[Set]]).
 */
import { Stream } from 'node:stream';
import { types } from 'node:util';
import { guardTargetOf } from './guardFunction.js';
import { isLockAccessor } from './lockIntrinsics.js';
import { append, dataOf, isObjectLike, keyName } from './bareReads.js';
import { hiddenIntrinsics } from './hiddenIntrinsics.js';


export interface Entry {
  readonly target: object;
  readonly name: string;
  /** Own keys and descriptors (prototype-less) as the baseline had them, side by side. */
  readonly keys: PropertyKey[];
  readonly descriptors: PropertyDescriptor[];
  /** The writable data properties' keys and values: what the quick look compares (a read-only one changes only by a definition). */
  readonly dataKeys: PropertyKey[];
  readonly dataValues: unknown[];
  /** Its enumerable string keys and its symbol keys, in order: what the quick look lists again and compares (an addition, a deletion, a key moved last). */
  readonly enumerable: string[];
  readonly symbols: symbol[];
  /** Its configurable non-enumerable string keys: what the quick look finds still there (neither list shows their deletion). */
  readonly hidden: PropertyKey[];
  /** Configurable keys both lists show that an assignment would re-make otherwise (read-only, an accessor, a non-enumerable symbol) if deleted first: their descriptors are compared. */
  readonly reshapable: PropertyKey[];
  readonly reshapableDescriptors: PropertyDescriptor[];
  readonly proto: object | null;
  readonly extensible: boolean;
  /** Something was defined on it since the last look: the next look compares every descriptor. */
  defined: boolean;
}

/**
 * A function with nothing of its own but its name, its length and, if it has one, a prototype that holds nothing but its
 * constructor (a method, a getter, a function never used to build objects with methods): undefined, or the prototype.
 */
function bareFunction(value: object): object | null | undefined {
  if (typeof value !== 'function') return undefined;
  const keys = ownKeys(value);
  let proto: object | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'length' || key === 'name') continue;
    if (key !== 'prototype') return undefined;
    const candidate = dataOf(value, 'prototype');
    if (!isObjectLike(candidate) || isProxy(candidate) || getPrototypeOf(candidate) !== OBJECT_PROTOTYPE) return undefined;
    const own = ownKeys(candidate);
    if (own.length !== 1 || own[0] !== 'constructor' || dataOf(candidate, 'constructor') !== value) return undefined;
    proto = candidate;
  }
  return proto;
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
const { getOwnPropertyDescriptor, getOwnPropertySymbols: symbolsOf, keys: keysOf, getPrototypeOf, setPrototypeOf, isExtensible, isFrozen, freeze, hasOwn } = Object;
const { ownKeys, apply } = Reflect;
const stringSlice = String.prototype.slice;
const weakSetHas = WeakSet.prototype.has;
const weakSetAdd = WeakSet.prototype.add;
const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;
const { isProxy, isSet, isMap, isPromise } = types;
const promiseThen = Promise.prototype.then;
const isPrototypeOf = Object.prototype.isPrototypeOf;
const STREAM_PROTOTYPE = Stream.prototype;
const ignore = (): void => {};
const setForEach = Set.prototype.forEach;
const mapForEach = Map.prototype.forEach;
const OBJECT_PROTOTYPE = Object.prototype;

let entries: Entry[] | undefined;
const settings: Setting[] = [];
const collections: Collection[] = [];
const tracked = new WeakSet<object>();
const entryOf = new WeakMap<object, Entry>();

/** A descriptor with no prototype: reading or defining it reads nothing a journal put on Object.prototype. */
function bare(descriptor: PropertyDescriptor | undefined): PropertyDescriptor | undefined {
  if (descriptor !== undefined) setPrototypeOf(descriptor, null);
  return descriptor;
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
  const entry: Entry = { target, name, keys: [], descriptors: [], dataKeys: [], dataValues: [], enumerable: keysOf(target), symbols: symbolsOf(target), hidden: [], reshapable: [], reshapableDescriptors: [], proto: getPrototypeOf(target) as object | null, extensible: isExtensible(target), defined: false };
  const kept: [string, unknown][] = [];
  keys = ownKeys(target);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    const descriptor = bare(getOwnPropertyDescriptor(target, key)) as PropertyDescriptor;
    append(entry.keys, key);
    append(entry.descriptors, descriptor);
    if (descriptor.configurable) {
      // What an assignment makes of a key deleted first: an enumerable, writable, configurable data property.
      if (typeof key === 'string' && !descriptor.enumerable) append(entry.hidden, key);
      else if (!hasOwn(descriptor, 'value') || !descriptor.writable || !descriptor.enumerable) {
        append(entry.reshapable, key);
        append(entry.reshapableDescriptors, descriptor);
      }
    }
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

/** Whether the baseline is taken. */
export function hasBaseline(): boolean {
  return entries !== undefined;
}

/** How many objects, properties and state-keeping accessors a restore looks at (for the bench and the tests). */
export function sharedCounts(): { objects: number; properties: number; accessors: number } {
  return { objects: entries?.length ?? 0, properties: entries?.reduce((sum, e) => sum + e.keys.length, 0) ?? 0, accessors: settings.length };
}

/**
 * Takes the thread's baseline (once): globalThis, process and the hidden intrinsics, each with everything reachable from it
 * (trackTree): the functions' own properties, arrays, objects any number of levels down, prototypes.
 */
export function takeBaseline(): void {
  if (entries !== undefined) return;
  const list: Entry[] = [];
  const roots: [unknown, string][] = [[globalThis, 'globalThis'], [process, 'process']];
  for (const [name, value] of hiddenIntrinsics()) append(roots, [value, name]);
  trackTree(roots, list, false, true);
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

/** A builtin module's exports, handed to a journal: tracked from now on with everything reachable from them (trackTree), once a baseline exists. */
export function trackBuiltin(id: string, exports: unknown): void {
  if (entries === undefined || !isObjectLike(exports) || apply(weakSetHas, tracked, [exports])) return;
  const from = entries.length;
  trackTree([[exports, apply(stringSlice, id, [0, 5]) === 'node:' ? (apply(stringSlice, id, [5]) as string) : id]], entries, false);
  trackChains(entries, from);
}

/**
 * One of durasim's own modules handed to a journal (its exports, as a namespace): tracked from now on like a builtin's, and
 * the members of its Sets and Maps too (a builtin's are the runtime's state, never a journal's): a journal that keeps
 * "the keys this process sent" on an exported function, on an object in an exported array, on a method of an exported
 * class or in an exported Set must see a crash forget it.
 */
export function trackOwnModule(id: string, namespace: unknown): void {
  if (entries === undefined || !isObjectLike(namespace) || apply(weakSetHas, tracked, [namespace])) return;
  const list = entries;
  const from = list.length;
  apply(weakSetAdd, tracked, [namespace]);
  const keys = ownKeys(namespace);
  const roots: [unknown, string][] = [];
  for (let i = 0; i < keys.length; i++) append(roots, [dataOf(namespace, keys[i] as PropertyKey), `${id}.${keyName(keys[i] as PropertyKey)}`]);
  trackTree(roots, list, true);
  trackChains(list, from);
}

/**
 * Every object reachable from `roots` that no restore looks at yet, breadth first, through own properties (a data property's
 * value, an accessor's functions: no getter is called here) and prototypes: tracked, and with `members` a Set's or a Map's
 * members too. A function is an object a journal can write on as any other (process.nextTick.sent), an array too
 * (http.METHODS), and no level is too deep (util.inspect.colors): what a real process's memory holds, all of it.
 */
function trackTree(roots: [unknown, string][], list: Entry[], members: boolean, throughGetters = false): void {
  const queue = roots;
  for (let at = 0; at < queue.length; at++) {
    const [found, name] = queue[at] as [unknown, string];
    // A guarded function (guardFunction.ts) is a Proxy with no trap of its own for a write: what is written on it lands on its target.
    const value = isProxy(found) ? guardTargetOf(found) : found;
    if (!isObjectLike(value) || isProxy(value) || apply(weakSetHas, tracked, [value])) continue;
    const empty = members ? undefined : bareFunction(value);
    if (empty !== undefined) {
      // A builtin's function that holds nothing (about 2,000 of them): frozen, its empty prototype too, never looked at again.
      freeze(value);
      apply(weakSetAdd, tracked, [value]);
      if (empty !== null) {
        freeze(empty);
        apply(weakSetAdd, tracked, [empty]);
      }
      continue;
    }
    track(value, name, list);
    if (throughGetters) throughAccessors(value, name, queue);
    if (members && (isSet(value) || isMap(value))) trackMembers(value as Set<unknown> | Map<unknown, unknown>, name, queue);
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

/**
 * What only a getter hands out joins the walk (a blind attack kept a property on each): an object
 * a getter of `target` gives (globalThis.navigator, Node's module-level Navigator), and one a getter
 * on its prototype chain gives with `target` as its receiver (crypto.subtle, the SubtleCrypto
 * instance Crypto.prototype's getter hands every caller). Only while the baseline is taken, before
 * any journal runs: every getter is Node's or the engine's then. One that throws gives nothing.
 */
export function throughAccessors(target: object, name: string, queue: [unknown, string][]): void {
  for (let owner: object | null = target; owner !== null; owner = getPrototypeOf(owner) as object | null) {
    if (isProxy(owner)) return;
    const keys = ownKeys(owner);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as PropertyKey;
      const descriptor = getOwnPropertyDescriptor(owner, key);
      if (descriptor === undefined || typeof descriptor.get !== 'function' || isProxy(descriptor.get) || isLockAccessor(descriptor.get)) continue;
      let given: unknown;
      let again: unknown;
      try {
        given = apply(descriptor.get, target, []);
        again = apply(descriptor.get, target, []);
      } catch {
        continue;
      }
      // A promise (a stream writer's closed, on its prototype: rejected) is handled here, so no rejection is left.
      if (isPromise(given)) apply(promiseThen, given, [undefined, ignore]);
      if (isPromise(again)) apply(promiseThen, again, [undefined, ignore]);
      // Only what the getter gives every time (a singleton) can carry anything to a later call: one made per call (a
      // promise, a copy) cannot, and following those would never end. A stream is the thread's I/O in use
      // (process.stdout, what the real console writes to): its state changes as Node and durasim write, never put back.
      if (given !== again || !isObjectLike(given) || apply(isPrototypeOf, STREAM_PROTOTYPE, [given])) continue;
      append(queue, [given, `${name}.${keyName(key)} (what its getter gives)`]);
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
