// Shared helper (not an attack): hostile values built from a revoked Proxy.
export function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
/** An object whose prototype is a revoked Proxy and whose usual properties are getters that throw one. */
export function poison(label = 'atk') {
  const dead = revoked();
  const p = Object.create(dead);
  const keys = ['message', 'stack', 'name', 'code', 'cause', 'errno', 'syscall', 'path', 'toString', 'valueOf', 'toJSON', 'then', 'constructor', 'length', Symbol.toPrimitive, Symbol.iterator, Symbol.asyncIterator, Symbol.toStringTag, Symbol.for('nodejs.util.inspect.custom')];
  for (const k of keys) {
    try { Object.defineProperty(p, k, { get() { throw dead; }, enumerable: true, configurable: false }); } catch {}
  }
  return p;
}
export function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}
