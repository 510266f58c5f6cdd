/**
 * ATTACK a07-sabotage-after-send — once the no-fsync mutant's first request has reached the service
 * (the write-ahead violation is already evidence), the journal sabotages what durasim's own code in
 * the same thread might call and that is not among the locked builtins: every writable method on the
 * prototypes of TextEncoder/TextDecoder, URL/URLSearchParams, Headers/Request/Response/Blob/FormData,
 * the web streams and their readers, AbortController/AbortSignal, Event/EventTarget, node:stream's
 * classes, StringDecoder, crypto's Hash/Hmac, diagnostics_channel's Channel; the own functions of
 * node:crypto, node:stream, node:string_decoder, node:querystring, node:zlib, node:assert; and the
 * globals structuredClone, queueMicrotask, atob, btoa, setTimeout, setImmediate, clearTimeout, fetch —
 * each replaced (by plain assignment, never defineProperty) by a function that throws. What lies
 * deeper than a module's own properties (class prototypes) is not put back at the next incarnation,
 * so the sabotage may also reach later incarnations and scenarios in the same worker thread.
 *
 * A correct durasim answers exit 1 (the write-ahead finding stands; the journal breaking itself is a
 * journal error at most), or exit 4 (a replacement refused / reported, or nondeterminism caught by
 * re-run). Exit 5 (durasim reporting its own failure because of what the journal replaced) or exit 0
 * (finding lost) = bent.
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';
import * as crypto from 'node:crypto';
import cryptoDefault from 'node:crypto';
import stream from 'node:stream';
import sd from 'node:string_decoder';
import qs from 'node:querystring';
import zlib from 'node:zlib';
import assert from 'node:assert';
import dc from 'node:diagnostics_channel';
import streamWeb from 'node:stream/web';

let done = false;
function thrower(label) { return function sabotaged() { throw new Error(`atk-sabotage ${label}`); }; }
function sabotage(obj, label) {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) return 0;
  let keys; try { keys = Reflect.ownKeys(obj); } catch { return 0; }
  let n = 0;
  for (const k of keys) {
    if (k === 'constructor' || k === 'prototype') continue;
    let d; try { d = Object.getOwnPropertyDescriptor(obj, k); } catch { continue; }
    if (!d || !('value' in d) || typeof d.value !== 'function' || !d.writable) continue;
    try { obj[k] = thrower(`${label}.${String(k)}`); n++; } catch {}
  }
  return n;
}
function sabotageAll() {
  if (done) return;
  done = true;
  const protos = [];
  const g = globalThis;
  for (const name of ['TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'Headers', 'Request', 'Response', 'Blob', 'FormData', 'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamDefaultController', 'WritableStream', 'WritableStreamDefaultWriter', 'TransformStream', 'AbortController', 'AbortSignal', 'Event', 'EventTarget', 'DOMException', 'MessageEvent', 'TextEncoderStream', 'TextDecoderStream']) {
    try { if (g[name]) { protos.push([name, g[name].prototype]); protos.push([`${name}(static)`, g[name]]); } } catch {}
  }
  for (const name of ['Readable', 'Writable', 'Duplex', 'Transform', 'PassThrough', 'Stream']) { try { protos.push([`stream.${name}`, stream[name].prototype]); } catch {} }
  try { protos.push(['StringDecoder', sd.StringDecoder.prototype]); } catch {}
  try { protos.push(['Hash', Object.getPrototypeOf(cryptoDefault.createHash('sha256'))]); } catch {}
  try { protos.push(['Hmac', Object.getPrototypeOf(cryptoDefault.createHmac('sha256', 'k'))]); } catch {}
  try { protos.push(['Channel', Object.getPrototypeOf(dc.channel('atk'))]); } catch {}
  for (const [name, v] of Object.entries(streamWeb)) { try { if (typeof v === 'function' && v.prototype) protos.push([`stream/web.${name}`, v.prototype]); } catch {} }
  let n = 0;
  for (const [label, p] of protos) n += sabotage(p, label);
  for (const [label, m] of [['crypto', cryptoDefault], ['stream', stream], ['string_decoder', sd], ['querystring', qs], ['zlib', zlib], ['assert', assert]]) n += sabotage(m, label);
  for (const name of ['structuredClone', 'queueMicrotask', 'atob', 'btoa', 'setTimeout', 'setImmediate', 'clearTimeout', 'clearImmediate', 'setInterval', 'clearInterval', 'fetch']) {
    try { g[name] = thrower(name); n++; } catch {}
  }
  void crypto;
  console.log(`atk-diag a07: ${n} functions replaced`);
}
const bind = (t, v) => (typeof v === 'function' ? v.bind(t) : v);
export default {
  ...journal,
  name: 'a07-sabotage-after-send',
  run: async (env, task) => {
    const wrapped = new Proxy(env, {
      get(t, k) {
        const v = Reflect.get(t, k);
        if (k !== 'fetch' || typeof v !== 'function') return bind(t, v);
        return async (...args) => {
          try { return await v.apply(t, args); } finally { sabotageAll(); }
        };
      },
    });
    return journal.run(wrapped, task);
  },
};
