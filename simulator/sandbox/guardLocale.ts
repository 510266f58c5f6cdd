/**
 * The locale and the time zone a simulated process sees: UTC and en-US, on every host. The time
 * zone is the process's (TZ, set to UTC by fixedTimeZone(): Node takes it at once, for every
 * thread); the locale cannot be changed after Node starts, so under a journal's turn every call
 * that falls back to the default locale — Date#toLocaleString and its siblings, Number#, BigInt#
 * and Array#toLocaleString, String#localeCompare and the locale case mappings, and Intl's
 * formatters made without a locale — is given en-US instead. "Without a locale" is as Intl reads
 * it: none, or a list of none (`[]`, and anything else that is neither a string nor an
 * Intl.Locale whose length reads 0). Outside a turn nothing changes.
 */
import { isMainThread } from 'node:worker_threads';
import { turnHolder } from './turn.js';

type Restore = () => void;

/** The locale a simulated process has. */
export const SIMULATED_LOCALE = 'en-US';
/** The time zone a simulated process has. */
export const SIMULATED_TIME_ZONE = 'UTC';

/** Sets the process's time zone to UTC (from the main thread: a worker thread's TZ changes nothing); returns the restore. */
export function fixedTimeZone(): Restore | undefined {
  if (!isMainThread || process.env.TZ === SIMULATED_TIME_ZONE) return undefined;
  const saved = process.env.TZ;
  process.env.TZ = SIMULATED_TIME_ZONE;
  return () => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  };
}

/**
 * Whether `locales` names no locale, as Intl's CanonicalizeLocaleList reads it: undefined, or an
 * object (a primitive is boxed) whose length is 0; a string or an Intl.Locale names one, and null
 * throws (left to Intl). A length that throws is left to Intl too.
 */
function noLocale(locales: unknown): boolean {
  if (locales === undefined) return true;
  if (locales === null || typeof locales === 'string' || locales instanceof Intl.Locale) return false;
  try {
    const length = Number((Object(locales) as { length?: unknown }).length);
    return !(length >= 1);
  } catch {
    return false;
  }
}

/** `target[name]`, with its argument `at` (the locales) set to en-US under a turn when the caller gave none. */
function defaultLocaleOf(target: object, name: string, at: number): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const original = descriptor?.value as ((...args: unknown[]) => unknown) | undefined;
  if (typeof original !== 'function' || !descriptor) return undefined;
  const wrapped = {
    [name](this: unknown, ...args: unknown[]): unknown {
      if (turnHolder() !== null && noLocale(args[at])) {
        const given = [...args];
        while (given.length < at) given.push(undefined);
        given[at] = SIMULATED_LOCALE;
        return original.apply(this, given);
      }
      return original.apply(this, args);
    },
  }[name] as (...args: unknown[]) => unknown;
  Object.defineProperty(wrapped, 'length', { value: original.length });
  Object.defineProperty(target, name, { ...descriptor, value: wrapped });
  return () => Object.defineProperty(target, name, descriptor);
}

/** An Intl constructor made (with or without new) with en-US under a turn when the caller gave no locales. */
function defaultLocaleOfIntl(name: string): Restore | undefined {
  const intl = Intl as unknown as Record<string, unknown>;
  const Real = intl[name] as (new (...args: unknown[]) => object) & ((...args: unknown[]) => object);
  if (typeof Real !== 'function') return undefined;
  const withLocale = (args: unknown[]): unknown[] => (turnHolder() !== null && noLocale(args[0]) ? [SIMULATED_LOCALE, ...args.slice(1)] : args);
  const proxy: typeof Real = new Proxy(Real, {
    construct: (target, args, newTarget): object => Reflect.construct(target, withLocale(args), newTarget === proxy ? target : newTarget) as object,
    apply: (target, thisArg, args): object => Reflect.apply(target, thisArg, withLocale(args)) as object,
  });
  intl[name] = proxy;
  return () => {
    intl[name] = Real;
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');
const yearOf = (y: number): string => (y < 0 ? `-${String(-y).padStart(6, '0')}` : String(y).padStart(4, '0'));
const timeOf = (d: Date): string => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`;

/** Date#toString and #toTimeString name the zone in the default locale: under a turn, as en-US names UTC. */
function utcStrings(): Restore[] {
  const restores: Restore[] = [];
  const forms: Record<string, (d: Date) => string> = {
    toString: (d: Date) => `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${yearOf(d.getUTCFullYear())} ${timeOf(d)}`,
    toTimeString: timeOf,
  };
  for (const [name, form] of Object.entries(forms)) {
    const descriptor = Object.getOwnPropertyDescriptor(Date.prototype, name);
    const original = descriptor?.value as (this: Date) => string;
    if (!descriptor || typeof original !== 'function') continue;
    const wrapped = {
      [name](this: Date): string {
        if (turnHolder() === null || Number.isNaN(this.getTime())) return original.call(this);
        return form(this);
      },
    }[name] as (this: Date) => string;
    Object.defineProperty(Date.prototype, name, { ...descriptor, value: wrapped });
    restores.push(() => Object.defineProperty(Date.prototype, name, descriptor));
  }
  return restores;
}

export function guardLocale(): Restore[] {
  const restores: Restore[] = [];
  const add = (restore: Restore | undefined): void => void (restore && restores.push(restore));
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) add(defaultLocaleOf(Date.prototype, name, 0));
  add(defaultLocaleOf(Number.prototype, 'toLocaleString', 0));
  add(defaultLocaleOf(BigInt.prototype, 'toLocaleString', 0));
  add(defaultLocaleOf(Array.prototype, 'toLocaleString', 0));
  add(defaultLocaleOf(String.prototype, 'localeCompare', 1));
  add(defaultLocaleOf(String.prototype, 'toLocaleUpperCase', 0));
  add(defaultLocaleOf(String.prototype, 'toLocaleLowerCase', 0));
  for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames', 'Segmenter']) add(defaultLocaleOfIntl(name));
  restores.push(...utcStrings());
  add(fixedTimeZone());
  return restores;
}
