/**
 * A class whose instances durasim serves a journal (a FileHandle, a Dir, a timer, a MessagePort, an
 * http request and response, memfs's Stats): its constructor and its prototype frozen. One thread
 * serves every incarnation, so the prototype outlives each of them, and durasim's own code calls its
 * methods as it serves: a journal that replaced one (Stats.prototype.isDirectory) changed how
 * durasim serves it, and one that added a property kept memory across crashes. As with the
 * builtins the lock holds (lockIntrinsics.ts), an assignment fails as on any frozen object
 * (silently in sloppy code, a TypeError in strict code). Its instances are not frozen: their own
 * fields are the journal's handle's state. Its superclass is locked by its own call when it is
 * durasim's (RefHandle, Endpoint); Node's (EventEmitter, Readable) are the lock's and the restore's.
 */
export function lockServedClass<T extends abstract new (...args: never[]) => unknown>(served: T): T {
  Object.freeze(served.prototype);
  Object.freeze(served);
  return served;
}
