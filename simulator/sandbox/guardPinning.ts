/**
 * What no restart could undo on the objects every simulated process shares (sharedObjects.ts): a
 * real process's `process`, Array.prototype or node:fs die with it, here they outlive every
 * incarnation, so what a journal does to them must be undoable. Under a journal's turn:
 * - Object.freeze, Object.seal, Object.preventExtensions and Reflect.preventExtensions of a shared
 *   object are refused (an escape: no restart could thaw it);
 * - a property defined on one (Object.defineProperty, defineProperties, Reflect.defineProperty,
 *   __defineGetter__, __defineSetter__) is defined configurable, so that the next incarnation's
 *   start can delete or redefine it (a non-configurable one could never be taken back).
 * - worker_threads.markAsUntransferable and markAsUncloneable of a shared object are refused: V8
 *   keeps the mark where no property shows it (isMarkedAsUntransferable reads it back), so no
 *   restart could take it off;
 * - a held property (holdProperty: process.emitWarning, serveWarnings.ts), one durasim serves and
 *   Node's own code reads, is not defined at all: refused by name.
 * Whoever defines a property on a shared object — a journal, or Node and durasim outside any turn —
 * has the object looked at whole at the next restore (noteDefined), as is Error.captureStackTrace's
 * target. Outside a turn every call is the real one. Returns restore callbacks.
 */
import { createRequire } from 'node:module';
import { isShared, noteDefined } from './sharedBaseline.js';
import { refuse } from './guardFunction.js';
import { isJournalCode, turnHolder } from './turn.js';

type Restore = () => void;
type Fn = (...args: unknown[]) => unknown;

const { hasOwn, defineProperty: realDefineProperty, isFrozen, isSealed, isExtensible } = Object;
const { apply } = Reflect;
const FIELDS = ['enumerable', 'configurable', 'value', 'writable', 'get', 'set'] as const;

function replace(target: object, name: string, make: (real: Fn) => Fn): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const real = descriptor?.value as Fn | undefined;
  if (typeof real !== 'function' || !descriptor?.configurable) return undefined;
  const wrapped = make(real);
  realDefineProperty(wrapped, 'name', { value: real.name });
  realDefineProperty(wrapped, 'length', { value: real.length });
  realDefineProperty(target, name, { ...descriptor, value: wrapped });
  return () => realDefineProperty(target, name, descriptor);
}

/** Properties journal code may not define, each with the name its refusal gives (holdProperty). */
const held = new WeakMap<object, Map<PropertyKey, string>>();

/** Refuses journal code's definitions of `target[key]` by the name `api`; returns the restore that lets them again. */
export function holdProperty(target: object, key: PropertyKey, api: string): Restore {
  const keys = held.get(target) ?? new Map<PropertyKey, string>();
  keys.set(key, api);
  held.set(target, keys);
  return () => void held.get(target)?.delete(key);
}

/** The key a definition defines, converted once as the engine converts it (a key object's toString runs once). */
function propertyKey(key: unknown): PropertyKey {
  if (typeof key === 'symbol' || typeof key === 'string') return key;
  if (key === null || (typeof key !== 'object' && typeof key !== 'function')) return String(key);
  return Reflect.ownKeys({ [key as unknown as PropertyKey]: 0 })[0] as PropertyKey;
}

/** Refused if journal code defines a held property (`keys`: the keys it defines). */
function refuseHeld(target: unknown, keys: readonly PropertyKey[]): void {
  const names = typeof target === 'object' && target !== null ? held.get(target) : undefined;
  if (names === undefined) return;
  for (const key of keys) {
    const api = names.get(key);
    if (api === undefined) continue;
    const holder = turnHolder();
    if (holder !== null && isJournalCode(holder)) refuse(holder, api);
  }
}

/**
 * The descriptor a journal gave, read once in the order ToPropertyDescriptor reads it, defined
 * configurable unless the property exists (then its own configurability stays, and a change to it
 * is refused by the engine as before).
 */
function configurable(target: object, key: unknown, given: unknown): unknown {
  if ((typeof given !== 'object' || given === null) && typeof given !== 'function') return given; // the engine's TypeError
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const field of FIELDS) if (field in (given as object)) copy[field] = (given as Record<string, unknown>)[field];
  const exists = hasOwn(target, key as PropertyKey);
  if (!exists || copy.configurable === false) copy.configurable = true;
  return copy;
}

/** A shared object's definition under a turn goes through `configurable`; every definition on one is noted. */
function definingOne(real: Fn): Fn {
  // Explicit parameters, no rest array: Object.defineProperty runs on every module a bundle evaluates.
  return function defineProperty(this: unknown, target: unknown, key: unknown, given: unknown): unknown {
    if (typeof target === 'object' && target !== null && held.has(target)) {
      key = propertyKey(key);
      refuseHeld(target, [key as PropertyKey]);
    }
    if (!isShared(target)) return apply(real, this, [target, key, given]);
    noteDefined(target);
    return apply(real, this, [target, key, turnHolder() === null ? given : configurable(target as object, key, given)]);
  };
}

function definingMany(real: Fn): Fn {
  return function defineProperties(this: unknown, target: unknown, given: unknown): unknown {
    if (typeof target === 'object' && target !== null && held.has(target) && typeof given === 'object' && given !== null) {
      // Read once (a Proxy's traps could answer the engine otherwise), then checked.
      const once: Record<PropertyKey, unknown> = Object.create(null) as Record<PropertyKey, unknown>;
      for (const key of Reflect.ownKeys(given)) if (Object.prototype.propertyIsEnumerable.call(given, key)) once[key] = (given as Record<PropertyKey, unknown>)[key];
      refuseHeld(target, Reflect.ownKeys(once));
      given = once;
    }
    if (!isShared(target)) return apply(real, this, [target, given]);
    noteDefined(target);
    if (turnHolder() === null || typeof given !== 'object' || given === null) return apply(real, this, [target, given]);
    const all: Record<PropertyKey, unknown> = Object.create(null) as Record<PropertyKey, unknown>;
    for (const key of Reflect.ownKeys(given)) {
      if (Object.prototype.propertyIsEnumerable.call(given, key)) all[key] = configurable(target as object, key, (given as Record<PropertyKey, unknown>)[key]);
    }
    return apply(real, this, [target, all]);
  };
}

/** __defineGetter__ and __defineSetter__ define configurable properties already: noted only. */
function definingLegacy(real: Fn): Fn {
  return function defineAccessor(this: unknown, key: unknown, fn: unknown): unknown {
    if (typeof this === 'object' && this !== null && held.has(this)) {
      key = propertyKey(key);
      refuseHeld(this, [key as PropertyKey]);
    }
    noteDefined(this);
    return apply(real, this, [key, fn]);
  };
}

/** Freezing, sealing or making a shared object non-extensible under a turn: refused, unless it already is (a builtin's function the restore froze: nothing changes). */
function pinning(real: Fn, api: string, already: (target: object) => boolean): Fn {
  return function pin(this: unknown, ...args: unknown[]): unknown {
    const holder = isShared(args[0]) && !already(args[0] as object) ? turnHolder() : null;
    if (holder !== null) refuse(holder, api);
    return apply(real, this, args);
  };
}

function noting(real: Fn): Fn {
  return function captureStackTrace(this: unknown, ...args: unknown[]): unknown {
    noteDefined(args[0]);
    return apply(real, this, args);
  };
}

export function guardPinning(): Restore[] {
  const restores: Restore[] = [];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  const already: Record<string, (target: object) => boolean> = { freeze: isFrozen, seal: isSealed, preventExtensions: (target) => !isExtensible(target) };
  for (const name of ['freeze', 'seal', 'preventExtensions']) add(replace(Object, name, (real) => pinning(real, `Object.${name}`, already[name] as (target: object) => boolean)));
  add(replace(Reflect, 'preventExtensions', (real) => pinning(real, 'Reflect.preventExtensions', already.preventExtensions as (target: object) => boolean)));
  add(replace(Object, 'defineProperty', definingOne));
  add(replace(Reflect, 'defineProperty', definingOne));
  add(replace(Object, 'defineProperties', definingMany));
  for (const name of ['__defineGetter__', '__defineSetter__']) add(replace(Object.prototype, name, definingLegacy));
  add(replace(Error, 'captureStackTrace', noting));
  const workerThreads = createRequire(import.meta.url)('node:worker_threads') as Record<string, unknown>; // allow-ambient: patched, not called
  for (const name of ['markAsUntransferable', 'markAsUncloneable']) add(replace(workerThreads, name, (real) => pinning(real, `worker_threads.${name}`, () => false)));
  return restores;
}
