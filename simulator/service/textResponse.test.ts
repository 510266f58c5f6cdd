/**
 * TextResponse against Node's own Response of the same text: every body member, alone and in the
 * sequences a journal might use (a read twice, a clone before and after a read, the stream first),
 * gives the same values, the same errors (name and message) and the same bodyUsed.
 */
import { describe, expect, test } from 'vitest';
import { textResponse } from './textResponse.js';

const TEXTS = ['{"key":"post-a","state":"committed"}', '{"key":"post-a","sta', '', 'null', 'héllo → wörld ✓', '\uFEFF{"bom":true}', 'lone \uD800 surrogate', '{"a":1}\uDC00'];
const INIT: ResponseInit = { status: 201, headers: { 'content-type': 'application/json' } };

type Step = (r: Response) => Promise<unknown> | unknown;
const read = async (stream: ReadableStream<Uint8Array> | null): Promise<string> => {
  if (stream === null) return 'no body';
  const chunks: number[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(...next.value);
  return Buffer.from(chunks).toString('hex');
};
const SEQUENCES: Record<string, Step[]> = {
  text: [(r) => r.text()],
  json: [(r) => r.json()],
  arrayBuffer: [async (r) => Buffer.from(await r.arrayBuffer()).toString('hex')],
  bytes: [async (r) => Buffer.from(await (r as Response & { bytes(): Promise<Uint8Array> }).bytes()).toString('hex')],
  blob: [async (r) => { const b = await r.blob(); return `${b.type} ${b.size} ${Buffer.from(await b.arrayBuffer()).toString('hex')}`; }],
  'text twice': [(r) => r.text(), (r) => r.text()],
  'json then text': [(r) => r.json(), (r) => r.text()],
  'clone, read both': [async (r) => { const c = r.clone(); return [await r.text(), await c.text(), c instanceof Response]; }],
  'read, then clone': [(r) => r.text(), (r) => r.clone()],
  'bodyUsed around a read': [(r) => r.bodyUsed, (r) => r.text(), (r) => r.bodyUsed],
  'the stream, then text': [(r) => read(r.body), (r) => r.bodyUsed, (r) => r.text()],
  'text, then the stream': [(r) => r.text(), (r) => r.body !== null, (r) => r.body?.locked, (r) => r.bodyUsed],
  'the stream, looked at only': [(r) => r.body !== null, (r) => r.bodyUsed, (r) => r.json()],
  formData: [(r) => r.formData().then(() => 'parsed')],
  members: [(r) => [r.status, r.ok, r.statusText, r.headers.get('content-type'), r.type, r.url, r.redirected, Object.prototype.toString.call(r)]],
};

async function outcomes(response: Response, steps: Step[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const step of steps) {
    try {
      out.push(await step(response));
    } catch (error) {
      out.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
  }
  return out;
}

describe('TextResponse, a Response whose body is a text', () => {
  for (const [name, steps] of Object.entries(SEQUENCES)) {
    test(`${name}: as Node's Response, for every text`, async () => {
      for (const text of TEXTS) {
        const node = await outcomes(new Response(text, INIT), steps);
        const ours = await outcomes(textResponse(text, INIT), steps);
        expect(ours, JSON.stringify(text)).toEqual(node);
      }
    });
  }

  test('is a Response', () => {
    const response = textResponse('{}', INIT);
    expect(response).toBeInstanceOf(Response);
    expect(response.clone()).toBeInstanceOf(Response);
  });
});
