/**
 * The builtins in a thread that runs journals: durasim's own code (the simulator, the evidence it
 * keeps) runs on the same JavaScript and Node builtins as the journal, so a journal that replaced
 * one (Map.prototype.set, JSON.stringify, Promise.prototype.then, path.resolve) would run inside
 * the simulator; one that added Object.prototype.then would turn every object durasim awaits into
 * its own. Rules, applied once per thread before any journal code loads (lockIntrinsics):
 * - Locked: every global and everything reachable from it that is JavaScript's (constructors,
 *   prototypes, namespaces, the hidden iterator and function prototypes) — each property
 *   non-configurable, each data property read-only; the globals themselves; and the function-valued
 *   exports of the pure Node modules durasim's code calls (path, util, url, buffer, events,
 *   string_decoder, querystring, crypto's hashes). A replacement by assignment fails as it does on
 *   a frozen object (silently in sloppy code, a TypeError in strict code): harmless to durasim.
 *   Not the process object: libraries patch its methods (signal-exit, under write-file-atomic and
 *   proper-lockfile, wraps process.emit and reallyExit), and durasim's own code keeps what it calls of it.
 * - A property code commonly overrides by assignment on its own objects (toString, valueOf, name,
 *   message, toJSON…) is an accessor instead, so `MyError.prototype.name = …` and
 *   `this.name = …` still define the object's own; assigning it on the builtin itself is refused.
 *   A prototype's `constructor` stays a writable data property (non-configurable): util.inspect
 *   names an object by its constructor's data property (an accessor there printed an Error or a
 *   Date as `{}`), and `Child.prototype.constructor = Child` must work. durasim's own code reads no
 *   builtin's constructor; one the journal assigns is put back at the next incarnation's start
 *   (sharedObjects.ts), as any writable property.
 * - Object.defineProperty and its kin (defineProperties, Reflect's, setPrototypeOf, __proto__,
 *   __defineGetter__) refuse to redefine a property of a builtin, to add then or toJSON to one, or
 *   to change its prototype: an escape, named.
 * - Watched, not locked: Array.prototype, Array and the array iterator. V8 drops its fast paths for
 *   arrays once any of their properties is redefined (array-heavy code ran 3–8 times slower), so
 *   they keep their attributes and are compared after every run instead (intrinsicChanges): a
 *   replacement is reported as an escape and the thread is not used again.
 * - Cannot grow: Object.prototype, Array.prototype, Function.prototype and Promise.prototype (a
 *   property added there — then, toJSON, a default option — would be inherited by durasim's own
 *   objects). Other prototypes may (a polyfill of Set.prototype.union or Iterator helpers), but
 *   their `then` is pinned undefined, so no value durasim resolves becomes a thenable.
 * - With the restore of a crash (sharedObjects.ts, at every incarnation's start), one rule: the lock
 *   comes first (before any journal code, before the restore's baseline), so the baseline holds
 *   the builtins as locked. What the lock keeps from changing never differs from the baseline: the
 *   restore skips its locked data properties (read-only) and its accessors (isLockAccessor: they
 *   keep no state), and never calls them unrestorable. A property the lock lets be added (to a
 *   builtin that may grow) is defined through the sandbox's Object.defineProperty as it was when
 *   the lock was made (guardPinning.ts: configurable, noted), so the restore takes it back. The
 *   watched builtins are put back by the restore as well, but each change is noted first
 *   (noteIntrinsicChanges, at the restore) and reported with those seen at the run's end.
 */
import { createRequire } from 'node:module';
import { types } from 'node:util';
import { refuse } from './guardFunction.js';
import { turnHolder } from './turn.js';

type Key = string | symbol;

/** Object.defineProperty as it was before this module wraps it. */
const define = Object.defineProperty;

/** Properties code overrides by assignment on objects that inherit them from a builtin. */
const OVERRIDDEN = new Set<Key>(['toString', 'toLocaleString', 'valueOf', 'name', 'message', 'toJSON', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);
/** Properties that stay writable: durasim and Node set them (Error.stackTraceLimit), or they are served elsewhere. */
const LEFT = new Map<object, Set<Key>>();
/** A name added to a builtin that durasim's own values would inherit to their harm: every object durasim resolves a promise with would be a thenable. */
const NEVER_ADDED = new Set<Key>(['then']);
/** The pure Node modules whose exported functions durasim's code (and memfs, under it) calls. */
const NODE_MODULES = ['path', 'path/posix', 'path/win32', 'util', 'util/types', 'url', 'buffer', 'events', 'string_decoder', 'querystring'];

/** The lock's accessors' getters (overridable): no state behind them, nothing for a restore to look at. */
const lockGetters = new WeakSet<object>();
const weakSetHas = WeakSet.prototype.has;
/** Whether `get` is the getter of one of the lock's accessors (sharedObjects.ts skips them). */
export function isLockAccessor(get: unknown): boolean {
  return typeof get === 'function' && (Reflect.apply(weakSetHas, lockGetters, [get]) as boolean);
}

const names = new Map<object, string>();
const locked = new WeakSet<object>();
/** The watched builtins' properties as they were when the thread was locked. */
const watched: { object: object; name: string; key: Key; descriptor: PropertyDescriptor }[] = [];
let done = false;

const describe = (object: object, key: Key): string => `${names.get(object) ?? 'a builtin'}${typeof key === 'symbol' ? `[${key.description ?? 'symbol'}]` : `.${key}`}`;

/** Refuses a change to a builtin made by code that is not durasim's (a turn's, or no turn's in a closed thread). */
function refuseChange(object: object, key: Key | undefined, what: string): void {
  const holder = turnHolder();
  if (holder === null) return;
  refuse(holder, `${what} ${key === undefined ? (names.get(object) ?? 'a builtin') : describe(object, key)}`);
}

/** An assignment-friendly accessor for `key` of `home`: the builtin's value, overridable on objects that inherit it. */
function overridable(home: object, key: Key, descriptor: PropertyDescriptor): void {
  const value = descriptor.value as unknown;
  const get = function get(): unknown {
    return value;
  };
  lockGetters.add(get);
  Object.defineProperty(home, key, {
    get,
    set(this: unknown, next: unknown) {
      if (this === home) {
        refuseChange(home, key, 'replacing');
        throw new TypeError(`Cannot assign to read only property '${String(key)}' of ${describe(home, key)}`);
      }
      if (typeof this !== 'object' && typeof this !== 'function') return;
      if (this === null) return;
      if (Object.prototype.hasOwnProperty.call(this, key)) Reflect.set(this, key, next, this);
      else define(this, key, { value: next, writable: true, enumerable: true, configurable: true });
    },
    enumerable: descriptor.enumerable === true,
    configurable: false,
  });
}

function lockObject(object: object, name: string, options: { prototype: boolean; functionsOnly?: boolean }): void {
  // A guard's Proxy (guardFunction.ts) answers its nested functions with guards of its own, which a read-only property would forbid.
  if (locked.has(object) || types.isProxy(object)) return;
  locked.add(object);
  if (!names.has(object)) names.set(object, name);
  const left = LEFT.get(object);
  for (const key of Reflect.ownKeys(object)) {
    if (left?.has(key)) continue;
    const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined || !descriptor.configurable) continue;
    if (!('value' in descriptor)) {
      Object.defineProperty(object, key, { configurable: false });
      continue;
    }
    if (options.functionsOnly && typeof descriptor.value !== 'function') continue;
    if (options.prototype && key === 'constructor') Object.defineProperty(object, key, { configurable: false });
    else if (options.prototype && OVERRIDDEN.has(key)) overridable(object, key, descriptor);
    else Object.defineProperty(object, key, { writable: false, configurable: false });
  }
}

/** Every object reachable from a global that is JavaScript's or Node's, with the name it is reached by. */
function builtins(): { object: object; name: string; prototype: boolean }[] {
  const out: { object: object; name: string; prototype: boolean }[] = [];
  const add = (value: unknown, name: string, prototype = false): void => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
    if (out.some((entry) => entry.object === value)) return;
    out.push({ object: value, name, prototype });
    names.set(value, name);
  };
  const global = globalThis as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (['globalThis', 'global', 'process', 'console', 'module', 'exports', 'require', '__filename', '__dirname'].includes(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
    const value = descriptor && 'value' in descriptor ? (descriptor.value as unknown) : global[key];
    add(value, key);
    if (typeof value === 'function') add((value as { prototype?: unknown }).prototype, `${key}.prototype`, true);
  }
  // The intrinsics no global names.
  const arrayIterator = Object.getPrototypeOf([][Symbol.iterator]()) as object;
  add(Object.getPrototypeOf(arrayIterator), '%IteratorPrototype%', true);
  add(arrayIterator, '%ArrayIteratorPrototype%', true);
  add(Object.getPrototypeOf(new Map()[Symbol.iterator]()), '%MapIteratorPrototype%', true);
  add(Object.getPrototypeOf(new Set()[Symbol.iterator]()), '%SetIteratorPrototype%', true);
  add(Object.getPrototypeOf(''[Symbol.iterator]()), '%StringIteratorPrototype%', true);
  add(Object.getPrototypeOf(/./[Symbol.matchAll]('')), '%RegExpStringIteratorPrototype%', true);
  const typedArray = Object.getPrototypeOf(Uint8Array) as object;
  add(typedArray, '%TypedArray%');
  add((typedArray as { prototype: object }).prototype, '%TypedArray%.prototype', true);
  const generator = Object.getPrototypeOf(function* () {}) as object;
  add(generator, '%GeneratorFunction.prototype%', true);
  add((generator as { prototype: object }).prototype, '%GeneratorPrototype%', true);
  add(Object.getPrototypeOf(async function () {}), '%AsyncFunction.prototype%', true);
  const asyncGenerator = Object.getPrototypeOf(async function* () {}) as object;
  add(asyncGenerator, '%AsyncGeneratorFunction.prototype%', true);
  add((asyncGenerator as { prototype: object }).prototype, '%AsyncGeneratorPrototype%', true);
  add(Object.getPrototypeOf((asyncGenerator as { prototype: object }).prototype), '%AsyncIteratorPrototype%', true);
  for (const name of ['Intl.DateTimeFormat', 'Intl.NumberFormat', 'Intl.Collator', 'Intl.PluralRules', 'Intl.RelativeTimeFormat', 'Intl.ListFormat', 'Intl.Segmenter', 'Intl.Locale', 'Intl.DisplayNames']) {
    const value = (Intl as unknown as Record<string, unknown>)[name.slice(5)];
    add(value, name);
    if (typeof value === 'function') add((value as { prototype: unknown }).prototype, `${name}.prototype`, true);
  }
  return out;
}

/** Array.prototype, Array and the array iterator: watched after every run, never redefined (see the rules). */
const WATCHED: ReadonlySet<object> = new Set([Array.prototype, Array, Object.getPrototypeOf([][Symbol.iterator]()) as object]);
const isWatched = (object: object): boolean => WATCHED.has(object);

/** Object.defineProperty and its kin, refusing a change to a builtin (see the rules). */
function guardDefinitions(): void {
  const isBuiltin = (target: unknown): target is object => (typeof target === 'object' || typeof target === 'function') && target !== null && (locked.has(target) || isWatched(target));
  const checkDefine = (target: unknown, key: unknown): void => {
    if (!isBuiltin(target)) return;
    const name = typeof key === 'symbol' ? key : String(key);
    const existing = Reflect.getOwnPropertyDescriptor(target, name);
    if (existing !== undefined || NEVER_ADDED.has(name) || !Object.isExtensible(target)) refuseChange(target, name, existing === undefined ? 'adding' : 'redefining');
  };
  // The definitions the sandbox already guards (guardPinning.ts: a property defined on a shared object is configurable, and noted), wrapped again.
  const realDefine = Object.defineProperty;
  const realDefines = Object.defineProperties;
  const realReflectDefine = Reflect.defineProperty;
  const realSetPrototype = Object.setPrototypeOf;
  const realReflectSetPrototype = Reflect.setPrototypeOf;
  const protoAccessor = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__') as PropertyDescriptor;
  const legacy = Object.prototype as unknown as Record<'__defineGetter__' | '__defineSetter__', (this: unknown, key: PropertyKey, fn: unknown) => void>;
  const realDefineGetter = legacy.__defineGetter__;
  const realDefineSetter = legacy.__defineSetter__;
  const replace = (target: object, key: Key, value: unknown): void => void define(target, key, { value, writable: true, configurable: true, enumerable: false });
  replace(Object, 'defineProperty', function defineProperty<T>(target: T, key: PropertyKey, attributes: PropertyDescriptor & ThisType<unknown>): T {
    checkDefine(target, key);
    return realDefine(target, key, attributes);
  });
  replace(Object, 'defineProperties', function defineProperties<T>(target: T, properties: PropertyDescriptorMap & ThisType<unknown>): T {
    if (isBuiltin(target)) for (const key of Reflect.ownKeys(Object(properties) as object)) checkDefine(target, key);
    return realDefines(target, properties);
  });
  replace(Reflect, 'defineProperty', function defineProperty(target: object, key: PropertyKey, attributes: PropertyDescriptor): boolean {
    checkDefine(target, key);
    return realReflectDefine(target, key, attributes);
  });
  replace(Object, 'setPrototypeOf', function setPrototypeOf<T>(target: T, prototype: object | null): T {
    if (isBuiltin(target)) refuseChange(target, undefined, 'changing the prototype of');
    return realSetPrototype(target, prototype) as T;
  });
  replace(Reflect, 'setPrototypeOf', function setPrototypeOf(target: object, prototype: object | null): boolean {
    if (isBuiltin(target)) refuseChange(target, undefined, 'changing the prototype of');
    return realReflectSetPrototype(target, prototype);
  });
  define(Object.prototype, '__proto__', {
    ...protoAccessor,
    set(this: unknown, prototype: unknown) {
      if (isBuiltin(this)) refuseChange(this, undefined, 'changing the prototype of');
      (protoAccessor.set as (value: unknown) => void).call(this, prototype);
    },
  });
  replace(Object.prototype, '__defineGetter__', function __defineGetter__(this: unknown, key: PropertyKey, getter: () => unknown): void {
    checkDefine(this, key);
    realDefineGetter.call(this, key, getter);
  });
  replace(Object.prototype, '__defineSetter__', function __defineSetter__(this: unknown, key: PropertyKey, setter: (value: unknown) => void): void {
    checkDefine(this, key);
    realDefineSetter.call(this, key, setter);
  });
}

/**
 * Locks this thread's builtins (see the rules): once, for good, before any journal code is
 * evaluated. Only for a thread that runs journals (a pool worker): the guards must be installed first.
 */
export function lockIntrinsics(): void {
  if (done) return;
  done = true;
  LEFT.set(Error, new Set(['stackTraceLimit', 'prepareStackTrace']));
  LEFT.set(Buffer, new Set(['poolSize']));
  const all = builtins();
  const load = createRequire(import.meta.url);
  for (const id of NODE_MODULES) {
    try {
      const exported = load(`node:${id}`) as object; // allow-ambient: loaded to be locked
      if (!names.has(exported)) names.set(exported, id);
      all.push({ object: exported, name: id, prototype: false });
    } catch {
      // not in this Node version
    }
  }
  const crypto = load('node:crypto') as { createHash: (name: string) => object; createHmac: (name: string, key: string) => object }; // allow-ambient: its hashes are locked
  for (const [name, made] of [['crypto.Hash.prototype', crypto.createHash('sha256')], ['crypto.Hmac.prototype', crypto.createHmac('sha256', 'k')]] as const) {
    all.push({ object: Object.getPrototypeOf(made) as object, name, prototype: false });
  }
  guardDefinitions();
  for (const { object, name } of all) {
    if (!isWatched(object)) continue;
    names.set(object, name);
    for (const key of Reflect.ownKeys(object)) watched.push({ object, name, key, descriptor: Reflect.getOwnPropertyDescriptor(object, key) as PropertyDescriptor });
  }
  // A `then` no polyfill may add: what durasim resolves a promise with is never a thenable (an object of the journal's may still be one).
  for (const { object, prototype } of all) {
    if (!prototype || isWatched(object) || types.isProxy(object) || Object.prototype.hasOwnProperty.call(object, 'then') || !Object.isExtensible(object)) continue;
    if (object === Object.prototype || object === Function.prototype) continue;
    overridable(object, 'then', { value: undefined, enumerable: false });
  }
  for (const { object, name, prototype } of all) {
    if (isWatched(object)) continue;
    const nodeModule = !prototype && (NODE_MODULES.includes(name) || name.startsWith('crypto.'));
    lockObject(object, name, { prototype, functionsOnly: nodeModule });
  }
  for (const object of [Object.prototype, Array.prototype, Function.prototype, Promise.prototype]) Object.preventExtensions(object);
  // The globals that hold them: each read-only (its value read once, a lazy one loaded now).
  const global = globalThis as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (['module', 'exports', 'require', '__filename', '__dirname', 'console'].includes(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
    if (descriptor === undefined || !descriptor.configurable) continue;
    const value = 'value' in descriptor ? (descriptor.value as unknown) : global[key];
    Object.defineProperty(globalThis, key, { value, writable: false, enumerable: descriptor.enumerable === true, configurable: false });
  }
}

/** The watched builtins' changes seen at an incarnation's start, before the restore put them back (noteIntrinsicChanges). */
const noted = new Set<string>();

function changesNow(): string[] {
  const changed: string[] = [];
  for (const { object, name, key, descriptor } of watched) {
    const now = Reflect.getOwnPropertyDescriptor(object, key);
    const same = now !== undefined && now.value === descriptor.value && now.get === descriptor.get && now.set === descriptor.set && now.writable === descriptor.writable && now.configurable === descriptor.configurable && now.enumerable === descriptor.enumerable;
    if (!same) changed.push(`${name}${typeof key === 'symbol' ? `[${key.description ?? 'symbol'}]` : `.${key}`}`);
  }
  return changed;
}

/** At an incarnation's start, before the restore puts them back: the watched builtins' changes, kept for intrinsicChanges(). */
export function noteIntrinsicChanges(): void {
  if (watched.length === 0) return;
  for (const name of changesNow()) noted.add(name);
}

/** What of the watched builtins (Array.prototype, Array, the array iterator) differs from how it was locked, now or at an incarnation's start since the last call: their names. */
export function intrinsicChanges(): string[] {
  const changed = [...new Set([...noted, ...changesNow()])];
  noted.clear();
  return changed;
}
