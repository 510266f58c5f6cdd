/**
 * A diagnostics_channel subscription outlives a real process's crash nowhere but here: the channels
 * live in Node's own registry, which no property of node:diagnostics_channel shows, and one thread
 * serves every incarnation. Rule: before journal code (a turn's, or code no turn holds in a closed
 * thread) subscribes to a channel or binds a store to it — Channel's subscribe and bindStore, and
 * those of the class an active channel has — the channel joins the shared objects as it is then
 * (sharedBaseline.ts trackBuiltin: its own properties, its prototype, its subscribers' array), so
 * the next incarnation's start puts it back: unsubscribed, inactive, as a new process finds it.
 * So are the channels dc.channel and dc.tracingChannel hand journal code (the registry keeps one
 * per name for the thread: a property left on one would outlive the crash). Node's own code
 * (publishing, hasSubscribers) is left as it is. Returns restore callbacks.
 */
import { createRequire } from 'node:module';
import { trackBuiltin } from './sharedBaseline.js';
import { claimMachinery, isJournalCode, turnHolder } from './turn.js';

type Restore = () => void;
type Fn = (...args: unknown[]) => unknown;

/** The tracking is durasim's own work: in a thread closed to code no turn holds, it runs as the machinery (sandbox/turn.ts). */
const machinery = claimMachinery();

const METHODS = ['subscribe', 'bindStore'];

function wrap(proto: Record<string, unknown>, name: string): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(proto, name);
  const real = descriptor?.value as Fn | undefined;
  if (descriptor === undefined || typeof real !== 'function' || !descriptor.configurable) return undefined;
  const replacement = {
    [name](this: unknown, ...args: unknown[]): unknown {
      if (typeof this === 'object' && this !== null && isJournalCode(turnHolder())) machinery(() => trackBuiltin('diagnostics_channel (a channel)', this));
      return Reflect.apply(real, this, args);
    },
  }[name] as Fn;
  Object.defineProperty(replacement, 'length', { value: real.length });
  Object.defineProperty(proto, name, { ...descriptor, value: replacement });
  return () => Object.defineProperty(proto, name, descriptor);
}

/** A function of node:diagnostics_channel that hands out the thread's channels: what it gives journal code is tracked first. */
function wrapFactory(exports: Record<string, unknown>, name: string): Restore | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(exports, name);
  const real = descriptor?.value as Fn | undefined;
  if (descriptor === undefined || typeof real !== 'function' || !descriptor.configurable) return undefined;
  const replacement = {
    [name](this: unknown, ...args: unknown[]): unknown {
      const given = Reflect.apply(real, this, args);
      if (typeof given === 'object' && given !== null && isJournalCode(turnHolder())) machinery(() => trackBuiltin(`diagnostics_channel.${name}()`, given));
      return given;
    },
  }[name] as Fn;
  Object.defineProperty(replacement, 'length', { value: real.length });
  Object.defineProperty(exports, name, { ...descriptor, value: replacement });
  return () => Object.defineProperty(exports, name, descriptor);
}

export function trackChannels(): Restore[] {
  const dc = createRequire(import.meta.url)('node:diagnostics_channel') as typeof import('node:diagnostics_channel'); // allow-ambient: patched, not called
  // An active channel has a class of its own (Node swaps the prototype while it has subscribers): found by activating one.
  const probe = dc.channel(Symbol('durasim.probe'));
  const inactive = Object.getPrototypeOf(probe) as Record<string, unknown>;
  const noop = (): void => {};
  probe.subscribe(noop);
  const active = Object.getPrototypeOf(probe) as Record<string, unknown>;
  probe.unsubscribe(noop);
  const restores: Restore[] = [];
  for (const name of ['channel', 'tracingChannel']) {
    const restore = wrapFactory(dc as unknown as Record<string, unknown>, name);
    if (restore) restores.push(restore);
  }
  for (const proto of active === inactive ? [inactive] : [inactive, active]) {
    for (const name of METHODS) {
      const restore = wrap(proto, name);
      if (restore) restores.push(restore);
    }
  }
  return restores;
}
