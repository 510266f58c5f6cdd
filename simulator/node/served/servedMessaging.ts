/**
 * MessageChannel, its MessagePorts and BroadcastChannel, served inside one simulated process.
 * Model (Node's, as a differential test against real Node checks it):
 * - postMessage clones the value (structuredClone) and queues it on the other end (no step: it
 *   reaches nothing outside the process). A port delivers once started (start(), an onmessage
 *   handler, a 'message' listener by on() or, in Node, by addEventListener); what was posted
 *   before waits for it. (allow-ambient: names what it serves)
 * - Each message is delivered as the receiving process's own code, as a task of its event loop
 *   that goes before its timers and immediates due at the same virtual millisecond (Node's poll
 *   phase comes before its check phase, and a message is ready at once), in the order posted.
 * - close() drops what the closing port had not delivered; both ends then get 'close'. A message
 *   posted to a closed port is dropped. A crash ends every port of the incarnation with it.
 * - BroadcastChannel reaches the channels of the same name in the same process (a real one reaches
 *   the threads of one process; the simulated processes are separate processes).
 * - A handler's exception is uncaught: it ends the incarnation, as it ends a real process.
 */
import type { Proc } from '../../world/proc.js';
import { RefHandle } from './refHandle.js';
import type { Served, ServeContext } from './serveContext.js';
import { lockServedClass } from '../../sandbox/lockServedClass.js';

type Listener = { fn: (arg: unknown) => unknown; nodeStyle: boolean; once: boolean };

/** An endpoint's serving context, for the subclasses (set by Endpoint's static block). */
let ctxOf: (endpoint: Endpoint) => ServeContext;

/** What the ports and channels share: listeners by event, delivery as the process's own code. */
class Endpoint extends RefHandle {
  protected readonly listeners = new Map<string, Listener[]>();
  protected handler: ((event: MessageEvent) => unknown) | null = null;
  protected started = false;
  closed = false;

  // What it serves with is private (#): the journal holds the port, and a property would hand it durasim's world. Its
  // subclasses, in this module, read it through ctxOf.
  readonly #ctx: ServeContext;
  readonly #label: string;
  static {
    ctxOf = (endpoint) => endpoint.#ctx;
  }

  constructor(ctx: ServeContext, label: string) {
    super();
    this.#ctx = ctx;
    this.#label = label;
  }

  get onmessage(): ((event: MessageEvent) => unknown) | null {
    return this.handler;
  }
  set onmessage(handler: ((event: MessageEvent) => unknown) | null) {
    this.handler = typeof handler === 'function' ? handler : null;
    if (this.handler) this.start();
  }

  start(): void {
    this.started = true;
  }

  addEventListener(type: string, fn: unknown, options?: { once?: boolean } | boolean): void {
    if (typeof fn !== 'function') return;
    this.listen(type, { fn: fn as Listener['fn'], nodeStyle: false, once: typeof options === 'object' && options?.once === true });
    if (type === 'message') this.start(); // as Node's ports do (a browser's wait for start())
  }
  removeEventListener(type: string, fn: unknown): void {
    this.unlisten(type, fn);
  }
  on(type: string, fn: unknown): this {
    if (typeof fn === 'function') this.listen(type, { fn: fn as Listener['fn'], nodeStyle: true, once: false });
    if (type === 'message') this.start();
    return this;
  }
  addListener(type: string, fn: unknown): this {
    return this.on(type, fn);
  }
  once(type: string, fn: unknown): this {
    if (typeof fn === 'function') this.listen(type, { fn: fn as Listener['fn'], nodeStyle: true, once: true });
    if (type === 'message') this.start();
    return this;
  }
  off(type: string, fn: unknown): this {
    this.unlisten(type, fn);
    return this;
  }
  removeListener(type: string, fn: unknown): this {
    return this.off(type, fn);
  }
  removeAllListeners(type?: string): this {
    if (type === undefined) this.listeners.clear();
    else this.listeners.delete(type);
    return this;
  }
  override hasRef(): boolean {
    return super.hasRef() && !this.closed;
  }

  private listen(type: string, listener: Listener): void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener);
    this.listeners.set(type, list);
  }
  private unlisten(type: string, fn: unknown): void {
    const list = this.listeners.get(type);
    const at = list?.findIndex((l) => l.fn === fn) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
  }

  /** A task of the owning process's event loop, before its timers due now: runs `deliver` as its own code. */
  protected task(what: string, deliver: () => void): void {
    const { world, proc } = this.#ctx;
    world.procTimer(proc, 0, `${this.#label} ${what}`, () => deliverAs(this.#ctx, `${this.#label} ${what}`, deliver), true);
  }

  /** Calls the listeners of `type` (and onmessage for 'message') with the event, or the value for Node-style ones. */
  protected dispatch(type: string, data?: unknown): void {
    const event = type === 'message' ? new MessageEvent('message', { data }) : new Event(type);
    if (type === 'message') this.handler?.call(this, event as MessageEvent);
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      if (listener.once) this.unlisten(type, listener.fn);
      listener.fn.call(this, listener.nodeStyle && type === 'message' ? data : event);
    }
  }
}
lockServedClass(Endpoint);

/** Runs a delivery as the process's own code; what it throws ends the incarnation. */
function deliverAs(ctx: ServeContext, label: string, deliver: () => void): void {
  const { world, proc } = ctx;
  if (!proc.alive || proc.done) return;
  world.record({ actor: proc.actor, incarnation: proc.incarnation, op: 'message', detail: `${label} delivered` });
  world.turns.asTurnOf(proc, () => {
    try {
      deliver();
    } catch (error) {
      world.uncaught(error);
    }
  }, ctx.call);
}

/** Node's MessagePort, inside one simulated process. */
export class SimulatedMessagePort extends Endpoint {
  peer: SimulatedMessagePort | undefined;
  private readonly queue: unknown[] = [];
  private scheduled = 0;

  postMessage(value: unknown): void {
    if (this.closed) return;
    const clone = structuredClone(value);
    this.peer?.receive(clone);
  }

  override start(): void {
    super.start();
    this.schedule();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    const peer = this.peer;
    this.task('close', () => this.dispatch('close'));
    if (peer && !peer.closed) {
      peer.closed = true;
      peer.task('close', () => peer.dispatch('close'));
    }
  }

  private receive(value: unknown): void {
    if (this.closed) return;
    this.queue.push(value);
    this.schedule();
  }

  /** One task per queued message not yet given one, once started. */
  private schedule(): void {
    if (!this.started) return;
    while (this.scheduled < this.queue.length) {
      this.scheduled++;
      this.task('message', () => {
        this.scheduled--;
        if (this.closed || this.queue.length === 0) return;
        this.dispatch('message', this.queue.shift());
      });
    }
  }
}
lockServedClass(SimulatedMessagePort);

/** Node's BroadcastChannel, reaching the channels of its name in the same simulated process. */
export class SimulatedBroadcastChannel extends Endpoint {
  constructor(
    ctx: ServeContext,
    readonly name: string,
  ) {
    super(ctx, `BroadcastChannel ${JSON.stringify(name)}`);
    this.started = true;
    channelsOf(ctx.proc, name).add(this);
  }

  postMessage(value: unknown): void {
    if (this.closed) throw new DOMException('BroadcastChannel is closed.', 'InvalidStateError');
    const clone = structuredClone(value);
    for (const other of channelsOf(ctxOf(this).proc, this.name)) if (other !== this) other.task('message', () => other.closed || other.dispatch('message', structuredClone(clone)));
  }

  close(): void {
    this.closed = true;
    channelsOf(ctxOf(this).proc, this.name).delete(this);
  }
}
lockServedClass(SimulatedBroadcastChannel);

/** A process's broadcast channels by name, kept on the process (not in a WeakMap keyed by it, whose values a young collection would keep). */
const CHANNELS: unique symbol = Symbol('durasim.broadcastChannels');
function channelsOf(proc: Proc, name: string): Set<SimulatedBroadcastChannel> {
  const slot = proc as unknown as { [CHANNELS]?: Map<string, Set<SimulatedBroadcastChannel>> };
  const byName = (slot[CHANNELS] ??= new Map());
  let set = byName.get(name);
  if (set === undefined) byName.set(name, (set = new Set()));
  return set;
}

function newChannel(ctx: ServeContext, newTarget: unknown): { port1: SimulatedMessagePort; port2: SimulatedMessagePort } {
  if (newTarget === undefined) throw Object.assign(new TypeError("Class constructor MessageChannel cannot be invoked without 'new'"), { code: 'ERR_CONSTRUCT_CALL_REQUIRED' });
  const port1 = new SimulatedMessagePort(ctx, 'MessagePort 1');
  const port2 = new SimulatedMessagePort(ctx, 'MessagePort 2');
  port1.peer = port2;
  port2.peer = port1;
  return { port1, port2 };
}

const messageChannel: Served = (ctx, _args, _thisArg, newTarget) => newChannel(ctx, newTarget);
const broadcastChannel: Served = (ctx, [name], _thisArg, newTarget) => {
  if (newTarget === undefined) throw Object.assign(new TypeError("Class constructor BroadcastChannel cannot be invoked without 'new'"), { code: 'ERR_CONSTRUCT_CALL_REQUIRED' });
  return new SimulatedBroadcastChannel(ctx, String(name));
};

export const MESSAGING_SERVED: [string, Served][] = [
  ['MessageChannel', messageChannel],
  ['worker_threads.MessageChannel', messageChannel],
  ['BroadcastChannel', broadcastChannel],
  ['worker_threads.BroadcastChannel', broadcastChannel],
];
