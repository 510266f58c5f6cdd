/**
 * A class whose instances durasim serves a journal (a FileHandle, a Dir, a timer, a MessagePort, an
 * http request and response, a fetch Response, memfs's Stats): its constructor, its prototype and
 * every function on either (methods, accessors, and a generator method's prototype) frozen. One
 * thread serves every incarnation, so all of them outlive each incarnation, and durasim's own code
 * calls those methods as it serves: a journal that replaced one (Stats.prototype.isDirectory)
 * changed how durasim serves it, and one that added a property to any of them (the prototype, or a
 * method: a blind attack kept its memory on FileHandle.prototype.sync) kept memory across crashes.
 * As with the builtins the lock holds (lockIntrinsics.ts), an assignment fails as on any
 * frozen object (silently in sloppy code, a TypeError in strict code). Its instances are not frozen:
 * their own fields are the journal's handle's state. Its superclass is locked by its own call when
 * it is durasim's (RefHandle, Endpoint); Node's (EventEmitter, Readable, Response) are the lock's
 * and the restore's. The served APIs lock what the disk and the service make (memfs's Stats, the fetch
 * Response): those rooms sit below the sandbox.
 */
export function lockServedClass<T extends abstract new (...args: never[]) => unknown>(served: T): T {
  for (const target of [served.prototype as object, served]) {
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, key) as PropertyDescriptor;
      for (const fn of [descriptor.value as unknown, descriptor.get, descriptor.set]) {
        if (typeof fn !== 'function' || fn === served || Object.isFrozen(fn)) continue;
        const prototype = (fn as { prototype?: unknown }).prototype;
        if (typeof prototype === 'object' && prototype !== null) Object.freeze(prototype);
        Object.freeze(fn);
      }
    }
    Object.freeze(target);
  }
  return served;
}
