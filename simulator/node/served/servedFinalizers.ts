/**
 * FinalizationRegistry in a simulated process: its registrations are kept, and its callback never
 * runs. Node would call it at a time only the real garbage collector decides, from no process's
 * turn (a library closing file handles from a finalizer reached the real disk that way); a
 * collector that finalizes nothing is one JavaScript allows, and the same on every run.
 */
import type { Served } from './serveContext.js';

/** The real class, taken before the sandbox guards the global. */
const Registry = FinalizationRegistry;

const finalizationRegistry: Served = (_ctx, _args, _thisArg, newTarget) => {
  if (newTarget === undefined) throw new TypeError("Constructor FinalizationRegistry requires 'new'");
  return Reflect.construct(Registry, [() => {}], newTarget as typeof Registry);
};

export const FINALIZERS_SERVED: [string, Served][] = [['FinalizationRegistry', finalizationRegistry]];
