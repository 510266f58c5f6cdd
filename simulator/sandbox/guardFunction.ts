/**
 * Guarded stand-ins for real functions and classes: while a journal holds the turn a call is
 * served by the simulated world when it can be, else refused (the escape recorded, a house-style
 * error thrown); outside a turn the original runs. Own
 * function-valued properties are guarded too (process.hrtime.bigint, fs.realpath.native, the
 * promisify.custom of setTimeout), so no path around the guard is one property away. (allow-ambient: names what it guards)
 */
import { DurasimError } from '../../model/contract/failure.js';
import { escapeFix } from './escapeCatalog.js';
import { NOT_SERVED, turnHolder, type TurnHolder } from './turn.js';

/** Records the escape on the holder and throws the error the journal sees. */
export function refuse(holder: TurnHolder, api: string): never {
  const escape = holder.onEscape(api);
  throw new DurasimError('run the journal under simulation', escape.message, escape.fix ?? escapeFix(api, holder.loading === true));
}

/** The world's answer to `api` for the holder, or the escape refused. */
export function serveOrRefuse(holder: TurnHolder, api: string, real: () => unknown, args: readonly unknown[] = [], thisArg?: unknown): unknown {
  const served = holder.serve ? holder.serve(api, args, thisArg, undefined, real) : NOT_SERVED;
  if (served === NOT_SERVED) refuse(holder, api);
  return served;
}

type AnyFunction = (...args: unknown[]) => unknown;

const guarded = new WeakSet<object>();
/** Each guarded stand-in's target (the function object a property written on the stand-in lands on). */
const targets = new WeakMap<object, object>();

/** The object a guarded stand-in (a Proxy) keeps its properties on, for the restore of a crash (sharedBaseline.ts); undefined for any other value. */
export function guardTargetOf(value: unknown): object | undefined {
  return (typeof value === 'function' || (typeof value === 'object' && value !== null)) ? targets.get(value) : undefined;
}

/** Whether `fn` can be called with `new` (without calling it). */
function isConstructor(fn: AnyFunction): boolean {
  try {
    Reflect.construct(String, [], fn);
    return true;
  } catch {
    return false;
  }
}

/** An own function-valued property of `fn` that is read-only and non-configurable (not its prototype). */
function hasPinnedFunction(fn: AnyFunction): boolean {
  return Reflect.ownKeys(fn).some((key) => {
    if (key === 'prototype') return false;
    const descriptor = Object.getOwnPropertyDescriptor(fn, key);
    return descriptor !== undefined && 'value' in descriptor && typeof descriptor.value === 'function' && !descriptor.configurable && !descriptor.writable;
  });
}

/**
 * What a guard's Proxy stands on. A Proxy must answer a read-only, non-configurable property of its
 * target with the target's very value, so a function holding a function there could not have it
 * guarded: reading it threw a TypeError, in a journal's turn or not — util.promisify of
 * child_process.exec or execFile, fs.exists or http2.connect (their util.promisify.custom, which
 * calls the real function). Such a function's Proxy stands on a stand-in holding copies of its
 * properties, configurable, with its prototype; calls still go to the real function. Any other
 * function is its own target.
 */
function targetFor(fn: AnyFunction): AnyFunction {
  if (!hasPinnedFunction(fn)) return fn;
  const standIn: AnyFunction = isConstructor(fn) ? function standIn() {} : () => {};
  for (const key of Reflect.ownKeys(standIn)) if (key !== 'prototype') Reflect.deleteProperty(standIn, key);
  for (const key of Reflect.ownKeys(fn)) {
    const descriptor = Object.getOwnPropertyDescriptor(fn, key) as PropertyDescriptor;
    if (key === 'prototype') Object.defineProperty(standIn, 'prototype', { value: descriptor.value as unknown, writable: descriptor.writable === true });
    else Object.defineProperty(standIn, key, { ...descriptor, configurable: true });
  }
  Object.setPrototypeOf(standIn, Object.getPrototypeOf(fn) as object | null);
  return standIn;
}

/** A Proxy of `fn` (function or class) refused under a journal's turn. */
export function guardFunction<T>(fn: T, api: string): T {
  if (typeof fn !== 'function' || guarded.has(fn)) return fn;
  const real = fn as unknown as AnyFunction;
  const nested = new Map<PropertyKey, unknown>();
  const target = targetFor(real);
  const proxy: AnyFunction = new Proxy(target, {
    apply(_target, thisArg, args) {
      const holder = turnHolder();
      if (holder === null) return Reflect.apply(real, thisArg, args);
      const served = holder.serve ? holder.serve(api, args, thisArg, undefined, () => Reflect.apply(real, thisArg, args)) : NOT_SERVED;
      if (served === NOT_SERVED) refuse(holder, api);
      return served;
    },
    construct(_target, args, newTarget): object {
      const holder = turnHolder();
      if (holder === null) return Reflect.construct(real, args, newTarget) as object;
      const served = holder.serve ? holder.serve(api, args, undefined, newTarget, () => Reflect.construct(real, args, newTarget)) : NOT_SERVED;
      if (served === NOT_SERVED) refuse(holder, api);
      return served as object;
    },
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'prototype' || property === 'constructor' || !Object.prototype.hasOwnProperty.call(target, property)) return value;
      return nestedGuard(property, value);
    },
    // The same stand-in read through a descriptor (Object.getOwnPropertyDescriptor(exec, util.promisify.custom).value).
    getOwnPropertyDescriptor(target, property) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, property);
      if (descriptor === undefined || !('value' in descriptor) || typeof descriptor.value !== 'function' || property === 'prototype' || property === 'constructor') return descriptor;
      if (!descriptor.configurable && !descriptor.writable) return descriptor; // reported as it is, as a Proxy must (targetFor leaves no function so)
      return { ...descriptor, value: nestedGuard(property, descriptor.value) };
    },
  });
  /** The guarded stand-in of the function at `property`, made once. */
  const nestedGuard = (property: PropertyKey, value: unknown): unknown => {
    let wrapped = nested.get(property);
    if (wrapped === undefined) {
      const name = typeof property === 'symbol' ? `[${property.description ?? 'symbol'}]` : String(property);
      wrapped = guardFunction(value, `${api}.${name}`);
      nested.set(property, wrapped);
    }
    return wrapped;
  };
  guarded.add(proxy);
  targets.set(proxy, target);
  return proxy as unknown as T;
}

/**
 * Replaces `target[name]` with a guarded stand-in when it is a function; returns a restore
 * callback (or undefined when nothing was replaced). Getter-backed properties are left alone.
 */
export function guardProperty(target: object, name: string, api: string): (() => void) | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (!descriptor || !('value' in descriptor) || typeof descriptor.value !== 'function' || guarded.has(descriptor.value as object)) return undefined;
  const original = descriptor.value as unknown;
  const replacement = guardFunction(original, api);
  if (descriptor.writable) (target as Record<string, unknown>)[name] = replacement;
  else if (descriptor.configurable) Object.defineProperty(target, name, { ...descriptor, value: replacement });
  else return undefined;
  return () => {
    if (descriptor.writable) (target as Record<string, unknown>)[name] = original;
    else Object.defineProperty(target, name, descriptor);
  };
}
