/**
 * ref(), unref() and hasRef() of Node's handles (a Timeout, a MessagePort), kept as a flag: in the
 * simulated world a process's end does not wait on its handles (world.ts), so the flag is what the
 * journal reads back, nothing more.
 */
import { lockServedClass } from '../../sandbox/lockServedClass.js';

export class RefHandle {
  protected referenced = true;
  ref(): this {
    this.referenced = true;
    return this;
  }
  unref(): this {
    this.referenced = false;
    return this;
  }
  hasRef(): boolean {
    return this.referenced;
  }
}
lockServedClass(RefHandle);
