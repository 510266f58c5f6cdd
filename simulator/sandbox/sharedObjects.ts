/**
 * What a restart forgets of the objects every simulated process of a thread shares: the global
 * object, `process`, the intrinsics (constructors, their prototypes, JSON, Math, Intl, the iterator
 * and generator prototypes…) and the exports of Node's builtin modules a journal was handed. In a
 * real process they are the process's own and die with it; here one thread serves every
 * incarnation, so what one left on them would reach the next. Rules:
 * - The baseline is taken once per thread, before any incarnation (ambientGuard.ts
 *   forgetProcessMemory): each object's own property descriptors, its prototype and whether it is
 *   extensible; an accessor pair that keeps state behind it (process.exitCode,
 *   EventEmitter.defaultMaxListeners, util.inspect.defaultOptions) also the value it gave, and that
 *   value's own properties when it is an object. A builtin module joins when it is first handed to
 *   a journal (trackBuiltin), with everything reachable from its exports (sharedBaseline.ts trackTree: functions'
 *   own properties, arrays, objects at any depth, prototypes); one of durasim's own modules (trackOwnModule) the
 *   same way, a Set's or Map's members too. A builtin's function that holds nothing but its name and length (and
 *   an empty prototype) is frozen instead of looked at: about 2,000 of them, which nothing can change.
 * - restoreShared() puts each back as the baseline has it — what was added deleted, what was
 *   changed or deleted defined again, the prototype and the accessors' values set back — and names
 *   what it put back. It runs at every incarnation's start, so each starts as a new process does.
 * - It looks quickly: an object nothing was defined on (noteDefined, called by guardPinning.ts) can
 *   only have had properties added, deleted or assigned, so its keys are counted and its writable
 *   data properties' values compared; only one something was defined on has every descriptor compared.
 * - It runs when what a journal left is all still in place: it calls nothing a journal can replace
 *   (every function it uses was captured when this module loaded, no iterator, no [[Set]], its
 *   descriptors have no prototype), so no journal code runs inside it.
 * - What no restore could undo (an object made non-extensible, a property made non-configurable)
 *   is kept from happening by guardPinning.ts; anything that still cannot be put back is named in
 *   `unrestorable`.
 * - Proxies are never walked (their traps are code), and no getter is called but at the baseline
 *   (Node's own, before any journal code) and the state-keeping accessors' Node's own getters.
 *   Not reached: what lies behind a getter that keeps no state (process.stdout: served per process,
 *   guardProcess.ts), Node's CommonJS module cache (hideModuleCache.ts), what only Node's own
 *   modules hold (diagnostics_channel's registry: trackChannels.ts; the warnings Node gives once a
 *   thread, util.deprecate's warned codes among them: never heard under journal code, serveWarnings.ts;
 *   what only an instance of a global class reaches: sharedBaseline.ts throughInstances; what Node's
 *   modules hand out only to an instance made with arguments: open, blind3/d04).
 * - RegExp's legacy statics (RegExp.lastMatch, $1…) are cleared.
 * - In a thread whose builtins are locked (lockIntrinsics.ts, before the baseline), the baseline
 *   holds them locked: a read-only property is never compared (only an assignment could change
 *   it, and none can), the lock's accessors keep no state and are not looked at
 *   (isLockAccessor), and nothing the lock keeps from changing is ever put back or called
 *   unrestorable. What the lock lets be added is defined configurable (guardPinning.ts) and taken back.
 */
import { append, keyName } from './bareReads.js';
import { baselineCollections, baselineEntries, baselineSettings, type Collection, type Entry, type Setting } from './sharedBaseline.js';

export interface Restored {
  /** What was put back, as `Array.prototype.x (added)`, `process.exitCode (changed)`. */
  restored: string[];
  /** What could not be put back (a change the guards did not keep from happening). */
  unrestorable: string[];
}

// Captured when this module loads, before any journal code: a journal may replace any of them.
const { getOwnPropertyDescriptor, getOwnPropertySymbols: symbolsOf, keys: keysOf, getPrototypeOf, setPrototypeOf, isExtensible, defineProperty, is, hasOwn } = Object;
const { ownKeys, deleteProperty, apply } = Reflect;
const regExpExec = RegExp.prototype.exec;
const setSize = (getOwnPropertyDescriptor(Set.prototype, 'size') as PropertyDescriptor).get as () => number;
const { has: setHas, add: setAdd, clear: setClear } = Set.prototype;
const mapSize = (getOwnPropertyDescriptor(Map.prototype, 'size') as PropertyDescriptor).get as () => number;
const { has: mapHas, get: mapGet, set: mapSet, clear: mapClear } = Map.prototype;
const EMPTY_PATTERN = /(?:)/;

/** Whether a descriptor getOwnPropertyDescriptor gave is `saved`: only its own fields are read (Object.prototype may hold a journal's `get`). */
function sameDescriptor(now: PropertyDescriptor | undefined, saved: PropertyDescriptor): boolean {
  if (now === undefined || now.enumerable !== saved.enumerable || now.configurable !== saved.configurable) return false;
  const data = hasOwn(now, 'value');
  if (data !== hasOwn(saved, 'value')) return false;
  return data ? is(now.value, saved.value) && now.writable === saved.writable : now.get === saved.get && now.set === saved.set;
}

/** Whether two lists of keys are the same, in the same order. */
function sameList(now: PropertyKey[], saved: PropertyKey[]): boolean {
  if (now.length !== saved.length) return false;
  for (let i = 0; i < now.length; i++) if (now[i] !== saved[i]) return false;
  return true;
}

/**
 * Whether `entry`'s object is as the baseline has it. With something defined on it since, every
 * key and descriptor is compared. With nothing, a property can only have been added (by an
 * assignment: enumerable, writable, configurable), deleted, or assigned:
 * - its enumerable string keys and its symbol keys are listed and compared in order (an addition, a
 *   deletion, a key deleted and assigned again, which comes last);
 * - its configurable non-enumerable string keys are looked for (their deletion no list shows; one
 *   assigned again is enumerable, in the list);
 * - a configurable key both lists show and an assignment would re-make otherwise (read-only, an
 *   accessor, a non-enumerable symbol) has its descriptor compared (deleted and assigned as the
 *   last key, it keeps its place but not its kind);
 * - its writable data properties' values are compared (an own data property is read without
 *   running any code; a deleted one reads what it inherits, never a journal's getter: every object
 *   on a shared object's prototype chain is shared, and those defined on are put back first).
 */
function unchanged(entry: Entry): boolean {
  const { target } = entry;
  if (getPrototypeOf(target) !== entry.proto || isExtensible(target) !== entry.extensible) return false;
  if (entry.defined) {
    const { keys, descriptors } = entry;
    const now = ownKeys(target);
    if (now.length !== keys.length) return false;
    for (let i = 0; i < keys.length; i++) if (now[i] !== keys[i] || !sameDescriptor(getOwnPropertyDescriptor(target, keys[i] as PropertyKey), descriptors[i] as PropertyDescriptor)) return false;
    return true;
  }
  if (!sameList(keysOf(target), entry.enumerable) || !sameList(symbolsOf(target), entry.symbols)) return false;
  const { hidden, reshapable, reshapableDescriptors, dataKeys, dataValues } = entry;
  for (let i = 0; i < hidden.length; i++) if (!hasOwn(target, hidden[i] as PropertyKey)) return false;
  for (let i = 0; i < reshapable.length; i++) if (!sameDescriptor(getOwnPropertyDescriptor(target, reshapable[i] as PropertyKey), reshapableDescriptors[i] as PropertyDescriptor)) return false;
  for (let i = 0; i < dataKeys.length; i++) if (!is((target as Record<PropertyKey, unknown>)[dataKeys[i] as PropertyKey], dataValues[i])) return false;
  return true;
}

/** Puts one object back as the baseline has it. */
function restoreEntry(entry: Entry, out: Restored): void {
  const same = unchanged(entry);
  entry.defined = false;
  if (same) return;
  const { target, name, keys, descriptors } = entry;
  const now = ownKeys(target);
  for (let i = 0; i < now.length; i++) {
    const key = now[i] as PropertyKey;
    let known = false;
    for (let j = 0; j < keys.length && !known; j++) known = keys[j] === key;
    if (known) continue;
    if (deleteProperty(target, key)) append(out.restored, `${name}.${keyName(key)} (added)`);
    else append(out.unrestorable, `${name}.${keyName(key)} (added, not configurable)`);
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    const current = getOwnPropertyDescriptor(target, key);
    if (sameDescriptor(current, descriptors[i] as PropertyDescriptor)) continue;
    try {
      defineProperty(target, key, descriptors[i] as PropertyDescriptor);
      append(out.restored, `${name}.${keyName(key)} (${current === undefined ? 'deleted' : 'changed'})`);
    } catch {
      append(out.unrestorable, `${name}.${keyName(key)} (changed, not configurable)`);
    }
  }
  if (getPrototypeOf(target) !== entry.proto) {
    try {
      setPrototypeOf(target, entry.proto);
      append(out.restored, `${name} (prototype changed)`);
    } catch {
      append(out.unrestorable, `${name} (prototype changed)`);
    }
  }
  if (entry.extensible && !isExtensible(target)) append(out.unrestorable, `${name} (made non-extensible)`);
  // A key deleted and added again comes last: the keys after it are defined again, in the baseline's order.
  const order = ownKeys(target);
  let from = 0;
  while (from < keys.length && order[from] === keys[from]) from++;
  for (let i = from; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    if (!(descriptors[i] as PropertyDescriptor).configurable || !deleteProperty(target, key)) continue;
    defineProperty(target, key, descriptors[i] as PropertyDescriptor);
  }
}

/**
 * Puts a Set's or a Map's members back as the baseline has them: as many, each there (a Map's with its value), or cleared
 * and filled again in the baseline's order. Only the functions captured above are called (a journal may replace the prototypes'
 * methods, and those objects are put back before these).
 */
function restoreCollection(collection: Collection, out: Restored): void {
  const { target, map, keys, values } = collection;
  let same = (apply(map ? mapSize : setSize, target, []) as number) === keys.length;
  for (let i = 0; same && i < keys.length; i++) same = map ? (apply(mapHas, target, [keys[i]]) as boolean) && is(apply(mapGet, target, [keys[i]]), values[i]) : (apply(setHas, target, [keys[i]]) as boolean);
  if (same) return;
  apply(map ? mapClear : setClear, target, []);
  for (let i = 0; i < keys.length; i++) apply(map ? mapSet : setAdd, target, map ? [keys[i], values[i]] : [keys[i]]);
  append(out.restored, `${collection.name} (members changed)`);
}

/** Puts every shared object back as the baseline has it (nothing when there is none); names what it put back. */
export function restoreShared(): Restored {
  const out: Restored = { restored: [], unrestorable: [] };
  setPrototypeOf(out.restored, null);
  setPrototypeOf(out.unrestorable, null);
  const entries = baselineEntries();
  const settings = baselineSettings();
  if (entries !== undefined) {
    // Those something was defined on first: a getter a journal put on a prototype is gone before any quick look reads through it.
    for (let i = 0; i < entries.length; i++) if ((entries[i] as Entry).defined) restoreEntry(entries[i] as Entry, out);
    for (let i = 0; i < entries.length; i++) restoreEntry(entries[i] as Entry, out);
  }
  const collections = baselineCollections();
  for (let i = 0; i < collections.length; i++) restoreCollection(collections[i] as Collection, out);
  for (let i = 0; i < settings.length; i++) {
    const setting = settings[i] as Setting;
    const descriptor = getOwnPropertyDescriptor(setting.target, setting.key);
    if (descriptor === undefined || !hasOwn(descriptor, 'get') || descriptor.get !== setting.get || descriptor.set !== setting.set) continue;
    try {
      if (is(apply(setting.get, setting.target, []), setting.value)) continue;
      apply(setting.set, setting.target, [setting.value]);
      append(out.restored, `${setting.name} (changed)`);
    } catch {
      append(out.unrestorable, `${setting.name} (changed)`);
    }
  }
  // RegExp's legacy statics (RegExp.lastMatch, $1…) hold the last match anyone made: a match of nothing clears them.
  apply(regExpExec, EMPTY_PATTERN, ['']);
  setPrototypeOf(out.restored, Array.prototype);
  setPrototypeOf(out.unrestorable, Array.prototype);
  return out;
}
