/**
 * TextResponse: a real `Response` (status, headers and the rest are undici's own) whose body is a
 * text the service answered, read without a stream. Node's Response wraps every body in a web
 * ReadableStream and reads it back through one — about 20 µs to make and 30 µs to read, more than
 * the rest of a simulated step — so the body is kept as text and each body method answers what
 * Node's would:
 * - text(): the body's bytes decoded as UTF-8 (a leading BOM dropped, lone surrogates replaced),
 *   json(): text() parsed (the same SyntaxError), arrayBuffer(), bytes(), blob() (typed by
 *   content-type); each once: a second read rejects with Node's TypeError, as does clone() after one.
 * - `body` and `bodyUsed`: the first look at `body` makes a real Response of the same bytes, and
 *   from then on every body member is that one's (a stream read by hand, formData(), a reader's lock).
 * textResponse.test.ts holds every member to a Node Response of the same text.
 */
const encoder = new TextEncoder();
/** String#isWellFormed and #toWellFormed (ES2024, in Node 20; this project's lib is ES2023). */
type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/** What Node's body mixin rejects a second read with. */
function unusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/**
 * The class is made on first use: a module-level `extends Response` would load Node's fetch (undici,
 * about 25 ms of CPU) in every thread that evaluates this module, the main thread included, which
 * never answers a request.
 */
function makeTextResponse() {
  return class TextResponse extends Response {
    #text: string;
    #init: ResponseInit;
    #used = false;
    /** The real Response the body became once `body` was looked at (its stream is then the body). */
    #real: Response | undefined;

    constructor(text: string, init: ResponseInit) {
      super(null, init);
      this.#text = text;
      this.#init = init;
    }

    #becomeReal(): Response {
      if (this.#real === undefined) {
        this.#real = new Response(this.#text, this.#init);
        // Read already: Node's stream is then consumed, and so is this one.
        if (this.#used) void this.#real.text();
      }
      return this.#real;
    }

    /** The text as Node reads the body: its UTF-8 bytes decoded (a lone surrogate becomes U+FFFD, a leading BOM goes). */
    #decoded(): string {
      const text = (this.#text as unknown as WellFormed).isWellFormed() ? this.#text : (this.#text as unknown as WellFormed).toWellFormed();
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }

    #take(): Promise<void> {
      if (this.#used) return Promise.reject(unusable());
      this.#used = true;
      return Promise.resolve();
    }

    override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
      return this.#becomeReal().body;
    }

    override get bodyUsed(): boolean {
      return this.#real ? this.#real.bodyUsed : this.#used;
    }

    override text(): Promise<string> {
      if (this.#real) return this.#real.text();
      return this.#take().then(() => this.#decoded());
    }

    override json(): Promise<unknown> {
      if (this.#real) return this.#real.json();
      return this.#take().then(() => JSON.parse(this.#decoded()) as unknown);
    }

    override arrayBuffer(): Promise<ArrayBuffer> {
      if (this.#real) return this.#real.arrayBuffer();
      return this.#take().then(() => encoder.encode(this.#text).buffer as ArrayBuffer);
    }

    override bytes(): Promise<Uint8Array<ArrayBuffer>> {
      if (this.#real) return this.#real.bytes();
      return this.#take().then(() => encoder.encode(this.#text) as Uint8Array<ArrayBuffer>);
    }

    override blob(): Promise<Blob> {
      if (this.#real) return this.#real.blob();
      return this.#take().then(() => new Blob([encoder.encode(this.#text)], { type: this.headers.get('content-type') ?? '' }));
    }

    override formData(): Promise<FormData> {
      return this.#becomeReal().formData();
    }

    override clone(): Response {
      if (this.#real) return this.#real.clone();
      if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
      return new TextResponse(this.#text, this.#init);
    }
  };
}

let made: ReturnType<typeof makeTextResponse> | undefined;

/** A Response whose body is `text`, read without a stream (above). */
export function textResponse(text: string, init: ResponseInit): Response {
  return new (textResponseClass())(text, init);
}

/** The TextResponse class (made once a thread), for the served APIs to lock (node/simEnv.ts: it is handed to a journal as its fetch's answer). */
export function textResponseClass(): ReturnType<typeof makeTextResponse> {
  made ??= makeTextResponse();
  return made;
}
