/**
 * A Redis-like client over env.store, for a library written against Redis: SET with NX/XX and
 * PX, GET, DEL, and the compare-and-delete that unlocks a lock only its owner holds. One file: what
 * a library that needs "SET key value NX PX ms" is given under simulation instead of ioredis.
 */
import type { Store } from 'durasim';

export interface RedisLike {
  /** SET key value [NX|XX] [PX ms]: "OK", or null when NX/XX refused it (as Redis answers). */
  set(key: string, value: string, options?: { nx?: boolean; xx?: boolean; px?: number }): Promise<'OK' | null>;
  get(key: string): Promise<string | null>;
  /** DEL key: how many keys it removed. */
  del(key: string): Promise<0 | 1>;
  /** The unlock script: DEL key only if it still holds `value` (compare-and-delete by version). */
  delIfEquals(key: string, value: string): Promise<0 | 1>;
}

export function redisLike(store: Store): RedisLike {
  return {
    async set(key, value, options = {}) {
      const ttl = options.px !== undefined ? { ttlMs: options.px } : {};
      if (options.xx) {
        const current = await store.get(key);
        if (!current) return null;
        return (await store.put(key, value, { ifVersion: current.version, ...ttl })).ok ? 'OK' : null;
      }
      return (await store.put(key, value, { ...(options.nx ? { ifAbsent: true } : {}), ...ttl })).ok ? 'OK' : null;
    },
    async get(key) {
      return (await store.get(key))?.value ?? null;
    },
    async del(key) {
      return (await store.delete(key)).ok ? 1 : 0;
    },
    async delIfEquals(key, value) {
      const current = await store.get(key);
      if (current?.value !== value) return 0;
      return (await store.delete(key, { ifVersion: current.version })).ok ? 1 : 0;
    },
  };
}
