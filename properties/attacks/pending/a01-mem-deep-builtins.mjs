/**
 * ATTACK a01-mem-deep-builtins — memory across a crash, kept one level deeper than the own
 * properties durasim puts back: objects hanging off `process` (stdout, stderr, versions, release,
 * features, argv, execArgv, allowedNodeEnvironmentFlags, the `_events` behind process.on), off
 * `console`, `navigator`, `performance`, and off builtin modules (path.posix/win32, util.types,
 * util.inspect.colors/styles, http.STATUS_CODES/METHODS, stream.Readable's prototype, the CJS
 * Module._cache and module.builtinModules, string_decoder's prototype, the diagnostics_channel registry).
 * Wraps the reference journal: the defect (token written to a file + no-fsync) shows only when the
 * memory is lost, as it is in a real restart.
 *
 * A correct durasim answers exit 1 (memory lost at every crash → no-secret-persisted / write-ahead
 * after a crash), or exit 4 if it refuses one of these places by name / reports module state that
 * survived. Exit 0 = some deep place kept memory across a simulated crash (bent).
 * (Note: the README's known limits say a property set on process.stdout is not put back; if that is
 * the only channel, it is the documented limit.)
 */
import { memoryJournal } from './_memjournal.mjs';
import path from 'node:path';
import util from 'node:util';
import http from 'node:http';
import stream from 'node:stream';
import module from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import dc from 'node:diagnostics_channel';

const places = () => {
  const list = [];
  const add = (label, get) => { try { const o = get(); if (o !== null && (typeof o === 'object' || typeof o === 'function')) list.push([label, o]); } catch {} };
  add('process.stdout', () => process.stdout);
  add('process.stderr', () => process.stderr);
  add('process.versions', () => process.versions);
  add('process.release', () => process.release);
  add('process.features', () => process.features);
  add('process.nextTick', () => process.nextTick);
  add('process.emitWarning', () => process.emitWarning);
  add('console', () => console);
  add('console.log', () => console.log);
  add('navigator', () => globalThis.navigator);
  add('performance', () => globalThis.performance);
  add('path.posix', () => path.posix);
  add('path.win32', () => path.win32);
  add('util.types', () => util.types);
  add('util.inspect.colors', () => util.inspect.colors);
  add('util.inspect.styles', () => util.inspect.styles);
  add('http.STATUS_CODES', () => http.STATUS_CODES);
  add('stream.Readable.prototype', () => stream.Readable.prototype);
  add('stream.Readable', () => stream.Readable);
  add('StringDecoder.prototype', () => StringDecoder.prototype);
  add('Module._cache', () => module.Module?._cache ?? module._cache);
  add('Module._pathCache', () => module.Module?._pathCache ?? module._pathCache);
  add('Module._extensions', () => module.Module?._extensions ?? module._extensions);
  return list;
};
const arrays = () => {
  const list = [];
  const add = (label, get) => { try { const a = get(); if (Array.isArray(a)) list.push([label, a]); } catch {} };
  add('process.argv', () => process.argv);
  add('process.execArgv', () => process.execArgv);
  add('http.METHODS', () => http.METHODS);
  add('module.builtinModules', () => module.builtinModules);
  return list;
};

const stash = {
  put(tag) {
    for (const [, o] of places()) { try { o[tag] = 'alive'; } catch {} }
    for (const [, a] of arrays()) { try { if (!a.includes(tag)) a.push(tag); } catch {} }
    try { process.allowedNodeEnvironmentFlags.add(tag); } catch {}
    try { process.on(tag, () => {}); } catch {}
    try { dc.channel(tag).subscribe(() => {}); } catch {}
  },
  get(tag) {
    const found = [];
    for (const [label, o] of places()) { try { if (Object.getOwnPropertyDescriptor(o, tag)?.value === 'alive') found.push(label); } catch {} }
    for (const [label, a] of arrays()) { try { if (a.includes(tag)) found.push(label); } catch {} }
    try { if (process.allowedNodeEnvironmentFlags.has(tag)) found.push('allowedNodeEnvironmentFlags'); } catch {}
    try { if (process.listenerCount(tag) > 0) found.push('process listeners'); } catch {}
    try { if (dc.hasSubscribers(tag)) found.push('diagnostics_channel'); } catch {}
    return found.length ? found.join(',') : undefined;
  },
};
// Its places, for the diagnostic d01 (which clears them first).
export { places, arrays, stash };
export default memoryJournal('a01-mem-deep-builtins', stash);
