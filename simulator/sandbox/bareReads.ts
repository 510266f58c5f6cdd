/**
 * Reads and writes that run no code a journal can replace: a plain data property read through its
 * descriptor, an append without [[Set]], a key's name. Shared by the baseline and the restore.
 */
const { defineProperty, getOwnPropertyDescriptor, hasOwn } = Object;

export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Appends without [[Set]] (an accessor a journal put on Array.prototype's indexes never runs). */
export function append<T>(list: T[], value: T): void {
  defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
}

export function keyName(key: PropertyKey): string {
  return typeof key === 'symbol' ? String(key) : `${key as string | number}`;
}

/** The own data property `key` of `target`, read without running any code (undefined for an accessor). */
export function dataOf(target: object, key: PropertyKey): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && hasOwn(descriptor, 'value') ? descriptor.value : undefined;
}
