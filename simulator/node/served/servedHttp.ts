/**
 * node:http and node:https clients, served as fetch is (servedFetch.ts): `request` and `get` give a
 * ClientRequest whose body is sent, when `end()` is called, as one step to the fake service; the
 * response is an IncomingMessage-shaped stream (statusCode, headers, the body's chunks, 'end'). The
 * fault model is fetch's: a dropped response never comes (a `timeout` option or the request's own timeout
 * emits 'timeout', on the virtual clock); a cut body ends in 'aborted' and an ECONNRESET error;
 * another host is not found (ENOTFOUND); an `AbortSignal` in the options aborts the request.
 * Every event reaches the journal's listeners as its own code. Agents, sockets, upgrades and
 * trailers are not modelled: a journal that needs them uses fetch.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Timer } from '../../world/clock.js';
import { simulatedFetch } from '../simEnv.js';

/** process.nextTick as it was when this module loaded: a journal may patch the process object's methods (signal-exit does). */
const nextTick = process.nextTick.bind(process);
import { asCaller, type Served, type ServeContext } from './serveContext.js';
import { lockServedClass } from '../../sandbox/lockServedClass.js';

type Headers = Record<string, string>;

interface RequestOptions {
  method?: string;
  protocol?: string;
  host?: string;
  hostname?: string;
  port?: number | string;
  path?: string;
  headers?: Record<string, string | number | string[]>;
  timeout?: number;
  signal?: AbortSignal;
}

function urlOf(defaultProtocol: string, target: URL | undefined, options: RequestOptions): string {
  if (target && options.path === undefined && options.hostname === undefined && options.host === undefined) return target.href;
  const protocol = options.protocol ?? target?.protocol ?? defaultProtocol;
  const host = options.hostname ?? options.host?.split(':')[0] ?? target?.hostname ?? 'localhost';
  const port = options.port ?? target?.port ?? '';
  const path = options.path ?? (target ? `${target.pathname}${target.search}` : '/');
  return `${protocol}//${host}${port === '' ? '' : `:${port}`}${path}`;
}

/** The response: a Readable of the body's chunks with the fields of Node's IncomingMessage. */
class ServedIncomingMessage extends Readable {
  statusCode = 0;
  statusMessage = '';
  headers: Headers = {};
  rawHeaders: string[] = [];
  httpVersion = '1.1';
  aborted = false;
  complete = false;
  override _read(): void {}
}
lockServedClass(ServedIncomingMessage);

class ServedClientRequest extends EventEmitter {
  method: string;
  path: string;
  host: string;
  protocol: string;
  aborted = false;
  destroyed = false;
  writableEnded = false;
  readonly #headers = new Map<string, { name: string; value: string }>();
  readonly #chunks: Buffer[] = [];
  readonly #controller = new AbortController();
  #timeoutMs: number | undefined;
  #timer: Timer | undefined;

  // What it serves with is private (#): the journal holds the request, and a property would hand it durasim's world.
  readonly #ctx: ServeContext;
  readonly #url: string;

  constructor(ctx: ServeContext, url: string, options: RequestOptions) {
    super();
    this.#ctx = ctx;
    this.#url = url;
    const parsed = new URL(url);
    this.method = (options.method ?? 'GET').toUpperCase();
    this.path = `${parsed.pathname}${parsed.search}`;
    this.host = parsed.hostname;
    this.protocol = parsed.protocol;
    for (const [name, value] of Object.entries(options.headers ?? {})) this.setHeader(name, value);
    if (options.timeout !== undefined) this.#timeoutMs = options.timeout;
    options.signal?.addEventListener('abort', () => this.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' })), { once: true });
  }

  /** Emits as the journal's own code: its listeners are its code. */
  #emitAs(event: string, ...args: unknown[]): void {
    asCaller(this.#ctx, () => this.emit(event, ...args));
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.#headers.set(name.toLowerCase(), { name, value: Array.isArray(value) ? value.join(', ') : String(value) });
    return this;
  }
  getHeader(name: string): string | undefined {
    return this.#headers.get(name.toLowerCase())?.value;
  }
  hasHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }
  removeHeader(name: string): void {
    this.#headers.delete(name.toLowerCase());
  }
  getHeaders(): Headers {
    return Object.fromEntries([...this.#headers].map(([key, { value }]) => [key, value]));
  }
  setTimeout(ms: number, callback?: () => void): this { // allow-ambient: ClientRequest#setTimeout, on the virtual clock
    this.#timeoutMs = ms;
    if (callback) this.once('timeout', callback);
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setSocketKeepAlive(): this {
    return this;
  }
  flushHeaders(): void {}

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), callback?: () => void): boolean {
    this.#chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) asCaller(this.#ctx, () => queueMicrotask(done));
    return true;
  }

  end(chunk?: string | Uint8Array | (() => void), encoding?: BufferEncoding | (() => void), callback?: () => void): this {
    if (this.writableEnded) return this;
    if (typeof chunk === 'function') callback = chunk;
    else if (chunk !== undefined) this.write(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (typeof encoding === 'function') callback = encoding;
    this.writableEnded = true;
    if (callback) this.once('finish', callback);
    this.#send();
    return this;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#emitAs('abort');
    this.destroy();
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#clearTimer();
    this.#controller.abort(error ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    if (error) this.#emitAs('error', error);
    this.#emitAs('close');
    return this;
  }

  #clearTimer(): void {
    if (this.#timer) this.#ctx.world.clock.cancel(this.#timer);
    this.#timer = undefined;
  }

  #send(): void {
    const ctx = this.#ctx;
    const body = this.#chunks.length > 0 ? Buffer.concat(this.#chunks) : undefined;
    const headers: Headers = this.getHeaders();
    const sent = simulatedFetch(ctx.world, ctx.proc)(this.#url, { method: this.method, headers, ...(body && this.method !== 'GET' && this.method !== 'HEAD' ? { body } : {}), signal: this.#controller.signal });
    this.#emitAs('finish');
    if (this.#timeoutMs !== undefined && this.#timeoutMs > 0) {
      this.#timer = ctx.world.procTimer(ctx.proc, this.#timeoutMs, 'http timeout', () => ctx.world.turns.asTurnOf(ctx.proc, () => this.emit('timeout'), ctx.call));
    }
    // The continuations run as the journal's code: what they emit reaches its listeners as its own.
    asCaller(ctx, () =>
      sent.then(
        (response) => this.#respond(response),
        (error: unknown) => {
          this.#clearTimer();
          if (this.destroyed) return;
          this.destroyed = true;
          const unreachable = error instanceof TypeError && /unreachable/.test(error.message);
          this.emit('error', unreachable ? Object.assign(new Error(`getaddrinfo ENOTFOUND ${this.host}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: this.host }) : error);
          this.emit('close');
        },
      ),
    );
  }

  async #respond(response: Response): Promise<void> {
    this.#clearTimer();
    if (this.destroyed) return;
    const message = new ServedIncomingMessage();
    message.statusCode = response.status;
    message.statusMessage = response.statusText;
    response.headers.forEach((value, name) => {
      message.headers[name] = value;
      message.rawHeaders.push(name, value);
    });
    this.emit('response', message);
    const reader = response.body?.getReader();
    try {
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) message.push(Buffer.from(part.value));
      message.complete = true;
      message.push(null);
    } catch {
      // What arrived before the connection broke reaches a reader first, as on a real socket.
      // (A stream flows on process.nextTick, which runs only between microtask checkpoints.)
      for (let tick = 0; tick < 64 && message.readableLength > 0 && message.readableFlowing !== false; tick++) await new Promise<void>((resolve) => nextTick(resolve));
      message.aborted = true;
      message.emit('aborted');
      message.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    }
    this.emit('close');
  }
}
lockServedClass(ServedClientRequest);

function clientOf(defaultProtocol: string, get: boolean): Served {
  return (ctx, args) => {
    const rest = [...args];
    const callback = typeof rest[rest.length - 1] === 'function' ? (rest.pop() as (response: unknown) => void) : undefined;
    const first = rest[0];
    const target = typeof first === 'string' ? new URL(first) : first instanceof URL ? first : undefined;
    const options = ((target ? rest[1] : first) ?? {}) as RequestOptions;
    const request = new ServedClientRequest(ctx, urlOf(defaultProtocol, target, options), options);
    if (callback) request.once('response', callback);
    if (get) request.end();
    return request;
  };
}

export const HTTP_SERVED: [string, Served][] = [
  ['http.request', clientOf('http:', false)],
  ['http.get', clientOf('http:', true)],
  ['https.request', clientOf('https:', false)],
  ['https.get', clientOf('https:', true)],
];
