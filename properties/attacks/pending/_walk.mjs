// Shared helper (not an attack): every object reachable from some roots, through own data properties,
// prototypes, Map keys/values and Set members — never calling a getter. JavaScript's and the host's
// shared intrinsics (globalThis's own values and their prototypes) are not entered.
const intrinsics = new Set();
{
  const add = (v) => { if (v !== null && (typeof v === 'object' || typeof v === 'function')) intrinsics.add(v); };
  add(globalThis);
  for (const k of Reflect.ownKeys(globalThis)) {
    let d; try { d = Object.getOwnPropertyDescriptor(globalThis, k); } catch { continue; }
    if (!d || !('value' in d)) continue;
    add(d.value);
    try { add(d.value.prototype); } catch {}
    try { add(Object.getPrototypeOf(d.value)); } catch {}
  }
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) { add(Object.getPrototypeOf(f)); try { add(Object.getPrototypeOf(f.prototype)); } catch {} }
  add(Object.getPrototypeOf([][Symbol.iterator]()));
  add(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
  add(Object.getPrototypeOf(new Map()[Symbol.iterator]()));
  add(Object.getPrototypeOf(new Set()[Symbol.iterator]()));
  add(Object.getPrototypeOf(''[Symbol.iterator]()));
  add(Object.getPrototypeOf(Uint8Array));
  add(Object.getPrototypeOf(Uint8Array.prototype));
}
export const isIntrinsic = (o) => intrinsics.has(o);
export function reachable(roots, { maxDepth = 6, limit = 40000, protos = true } = {}) {
  const seen = new Set();
  const out = [];
  const queue = roots.map((r) => [r, 0]);
  for (let i = 0; i < queue.length && out.length < limit; i++) {
    const [o, depth] = queue[i];
    if (o === null || (typeof o !== 'object' && typeof o !== 'function')) continue;
    if (seen.has(o) || intrinsics.has(o)) continue;
    seen.add(o);
    out.push(o);
    if (depth >= maxDepth) continue;
    let keys;
    try { keys = Reflect.ownKeys(o); } catch { continue; }
    for (const k of keys) {
      let d;
      try { d = Object.getOwnPropertyDescriptor(o, k); } catch { continue; }
      if (d && 'value' in d) queue.push([d.value, depth + 1]);
    }
    if (protos) { try { queue.push([Object.getPrototypeOf(o), depth + 1]); } catch {} }
    try { if (o instanceof Map) for (const [k, v] of Map.prototype.entries.call(o)) { queue.push([k, depth + 1]); queue.push([v, depth + 1]); } } catch {}
    try { if (o instanceof Set) for (const v of Set.prototype.values.call(o)) queue.push([v, depth + 1]); } catch {}
  }
  return out;
}
/** Leaves tag in every object: a property, a Map entry, a Set member, a WeakMap entry under weakKey. */
export function stashIn(objects, tag, weakKey) {
  let n = 0;
  for (const o of objects) {
    try {
      if (o instanceof WeakMap && weakKey) { WeakMap.prototype.set.call(o, weakKey, tag); n++; continue; }
      if (o instanceof Map) { Map.prototype.set.call(o, tag, 'alive'); n++; continue; }
      if (o instanceof Set) { Set.prototype.add.call(o, tag); n++; continue; }
      if (ArrayBuffer.isView(o)) continue;
      if (Object.isExtensible(o)) { o[tag] = 'alive'; n++; }
    } catch {}
  }
  return n;
}
/** Where tag is found among objects, as short descriptions. */
export function findIn(objects, tag, weakKey) {
  const found = [];
  for (const o of objects) {
    try {
      if (o instanceof WeakMap) { if (weakKey && WeakMap.prototype.get.call(o, weakKey) === tag) found.push('WeakMap'); continue; }
      if (o instanceof Map) { if (Map.prototype.get.call(o, tag) === 'alive') found.push('Map'); continue; }
      if (o instanceof Set) { if (Set.prototype.has.call(o, tag)) found.push('Set'); continue; }
      const d = Object.getOwnPropertyDescriptor(o, tag);
      if (d && d.value === 'alive') found.push(typeof o === 'function' ? `function ${o.name}` : `object ${o?.constructor?.name ?? '?'}`);
    } catch {}
  }
  return found;
}
