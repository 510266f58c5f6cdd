/**
 * A crash forgets what a real one forgets (issue 49 item 3). One probe journal per place a journal
 * can keep something outside its own modules — a property on process, on a builtin module's
 * exports, on a shared prototype or constructor, state behind an accessor, the Buffer pool — run in
 * the worker pool exactly as `durasim check` runs it: it reads the place, leaves something there,
 * takes one step and is killed after it; the next incarnation reads the place again. It must find
 * what a new process finds, and the scenario run again must give the same trace.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

interface Carrier {
  name: string;
  /** What the journal reads at its start (an expression). */
  read: string;
  /** What it leaves behind before the step it is killed after (statements). */
  leave: string;
  /** What a new process reads. */
  fresh: string;
  /** Imports of its own (durasim's modules). */
  imports?: string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_TYPES = JSON.stringify(join(ROOT, 'simulator/service/serviceTypes.ts'));

/** How many warnings Node gives while `call` runs, heard where Node's process.emitWarning schedules each (process.nextTick). */
const HEARD = (call: string): string =>
  `(() => { const real = process.nextTick; let heard = 0; process.nextTick = function (fn, ...args) { if (fn && fn.name === 'doEmitWarning') heard++; return real.call(this, fn, ...args); }; try { ${call}; } finally { process.nextTick = real; } return heard; })()`;

const CARRIERS: Carrier[] = [
  { name: 'a property added to process', read: 'process.carried', leave: "process.carried = 'left';", fresh: 'undefined' },
  { name: "a property added to node:path's exports", read: 'path.carried', leave: "path.carried = 'left';", fresh: 'undefined' },
  { name: "a function of node:fs replaced", read: "fs.readFileSync('/work/none.txt', 'utf8')", leave: "fs.readFileSync = () => 'replaced';", fresh: 'threw ENOENT' },
  { name: 'a method added to Array.prototype', read: '[].carried', leave: "Array.prototype.carried = () => 'left';", fresh: 'undefined' },
  { name: 'a method of String.prototype replaced', read: "'a'.anchor('x')", leave: "String.prototype.anchor = () => 'replaced';", fresh: '<a name="x">a</a>' },
  { name: 'a property added to JSON', read: 'JSON.carried', leave: "JSON.carried = 'left';", fresh: 'undefined' },
  { name: 'Error.stackTraceLimit changed', read: 'Error.stackTraceLimit', leave: 'Error.stackTraceLimit = 1;', fresh: '10' },
  // In a pool worker the builtins are locked (lockIntrinsics.ts) before the restore's baseline: a property the lock lets be added is defined through the restore's guard, configurable, and taken back.
  { name: "a property defined on a locked builtin's prototype (non-configurable by default)", read: 'new Map().carried', leave: "Object.defineProperty(Map.prototype, 'carried', { value: 'left' });", fresh: 'undefined' },
  { name: 'a global defined non-enumerable (and, by default, non-configurable)', read: 'globalThis.carried', leave: "Object.defineProperty(globalThis, 'carried', { value: 'left' });", fresh: 'undefined' },
  { name: 'process.exitCode set', read: 'process.exitCode', leave: 'process.exitCode = 7;', fresh: 'undefined' },
  { name: 'EventEmitter.defaultMaxListeners set through a require of its own (createRequire)', read: "ownRequire('node:events').defaultMaxListeners", leave: "ownRequire('node:events').defaultMaxListeners = 1;", fresh: '10' },
  { name: "a property added to process.getBuiltinModule('node:os')", read: "process.getBuiltinModule('node:os').carried", leave: "process.getBuiltinModule('node:os').carried = 'left';", fresh: 'undefined' },
  { name: 'util.inspect.defaultOptions changed in place', read: 'util.inspect.defaultOptions.depth', leave: 'util.inspect.defaultOptions.depth = 0;', fresh: '2' },
  { name: 'RegExp.lastMatch (the last match anyone made)', read: "RegExp.lastMatch === 'SECRET' ? 'carried' : 'clean'", leave: "/SECRET/.exec('a SECRET b');", fresh: 'clean' },
  { name: "a property added to the served better-sqlite3's Database (its stand-in for a native addon, shared as one is)", read: 'Database.carried', leave: "Database.carried = 'left';", fresh: 'undefined' },
  { name: "a method added to the served better-sqlite3's Database.prototype", read: "typeof Database.prototype.carried + ' ' + typeof Database", leave: "Database.prototype.carried = () => 'left';", fresh: 'undefined function' },
  // durasim's own modules, as a journal gets them (a copy of the thread's graph that outlives an incarnation, as builtins do): each reached one level or more below an export.
  { name: "a property added to an object in an array durasim exports (INVARIANTS[0])", imports: "import { INVARIANTS } from 'durasim';", read: 'INVARIANTS[0].carried', leave: "INVARIANTS[0].carried = 'left';", fresh: 'undefined' },
  { name: "a property of an object in an array durasim exports changed (STANDARD_OPERATIONS[0].key)", imports: "import { STANDARD_OPERATIONS } from 'durasim';", read: "STANDARD_OPERATIONS[0].key === 'changed' ? 'carried' : 'clean'", leave: "STANDARD_OPERATIONS[0].key = 'changed';", fresh: 'clean' },
  { name: "a property added to a method of a class durasim exports (ReferenceRun.prototype.dispatch)", imports: "import { ReferenceRun } from 'durasim';", read: 'ReferenceRun.prototype.dispatch.carried', leave: "ReferenceRun.prototype.dispatch.carried = 'left';", fresh: 'undefined' },
  { name: 'an element added to a Set a durasim module exports (imported by path)', imports: `import { NULL_BODY_STATUSES } from ${SERVICE_TYPES};`, read: 'NULL_BODY_STATUSES.has(999)', leave: 'NULL_BODY_STATUSES.add(999);', fresh: 'false' },
  { name: 'an element deleted from a Set a durasim module exports, another added (its size kept)', imports: `import { NULL_BODY_STATUSES } from ${SERVICE_TYPES};`, read: '[...NULL_BODY_STATUSES].join()', leave: 'NULL_BODY_STATUSES.delete(204); NULL_BODY_STATUSES.add(999);', fresh: '204,205,304' },
  // What durasim serves is an instance of durasim's own classes, which outlive an incarnation in the thread, as builtins do.
  { name: "a property added to a served timer's prototype (Node's Timeout, durasim's class)", read: 'Object.getPrototypeOf(setTimeout(() => {}, 0)).carried', leave: "Object.getPrototypeOf(setTimeout(() => {}, 0)).carried = 'left';", fresh: 'undefined' },
  { name: "a method of a served FileHandle's prototype replaced", read: "typeof Object.getPrototypeOf(await fs.promises.open('/work/fh.txt', 'w')).carried", leave: "Object.getPrototypeOf(await fs.promises.open('/work/fh.txt', 'w')).carried = () => 'left';", fresh: 'undefined' },
  // Found by a blind attack: the classes were frozen, their methods not.
  { name: "a property added to a method of a served FileHandle (its sync)", read: "Object.getPrototypeOf(await fs.promises.open('/work/fh.txt', 'w')).sync.carried", leave: "Object.getPrototypeOf(await fs.promises.open('/work/fh.txt', 'w')).sync.carried = 'left';", fresh: 'undefined' },
  { name: "a property added to a method of the Response a served fetch answers with (its text)", read: "Object.getPrototypeOf(await env.fetch('http://service.durasim/none')).text.carried", leave: "Object.getPrototypeOf(await env.fetch('http://service.durasim/none')).text.carried = 'left';", fresh: 'undefined' },
  { name: "a method of memfs's Stats replaced (what a served fs.stat hands over)", read: "(await fs.promises.stat('/work')).isDirectory()", leave: "Object.getPrototypeOf(await fs.promises.stat('/work')).isDirectory = () => false;", fresh: 'true' },
  // Found by a blind attack (a01): what the restore looked at went one level below a builtin's exports, and left functions and arrays out.
  { name: "a property added to process.nextTick's function object (a builtin's function holding nothing is frozen: the write fails)", read: 'process.nextTick.carried', leave: "try { process.nextTick.carried = 'left'; } catch {}", fresh: 'undefined' },
  { name: 'a colour added to util.inspect.colors (two levels below the exports)', read: 'util.inspect.colors.carried', leave: 'util.inspect.colors.carried = [1, 2];', fresh: 'undefined' },
  { name: 'a method pushed onto http.METHODS (an array of a builtin)', imports: "import http from 'node:http';", read: "http.METHODS.includes('CARRIED')", leave: "http.METHODS.push('CARRIED');", fresh: 'false' },
  { name: 'a property added to a function of node:fs that holds more than its name (fs.realpath, with its native)', read: 'fs.realpath.carried', leave: "fs.realpath.carried = 'left';", fresh: 'undefined' },
  { name: 'a property added to Array.prototype[Symbol.unscopables]', read: 'Array.prototype[Symbol.unscopables].carried', leave: "Array.prototype[Symbol.unscopables].carried = 'left';", fresh: 'undefined' },
  { name: 'a diagnostics_channel subscription (Node keeps its channels where no property shows them)', imports: "import dc from 'node:diagnostics_channel';", read: "dc.hasSubscribers('durasim-carried')", leave: "dc.channel('durasim-carried').subscribe(() => {});", fresh: 'false' },
  { name: 'a property added to process.stdout (served per process)', read: 'process.stdout.carried', leave: "process.stdout.carried = 'left';", fresh: 'undefined' },
  { name: "Node's CommonJS module cache (durasim's own modules: a journal finds it empty, and adds nothing to it)", read: "Object.keys(ownRequire('node:module')._cache).length", leave: "try { ownRequire('node:module')._cache.carried = 1; } catch {}", fresh: '0' },
  // Found by a blind attack (b01): Node gives a warning once a thread (util.deprecate's warned codes, a deprecated builtin's flag), kept where no restore reaches; under simulation none is heard, in the first incarnation as in the next.
  { name: "util.deprecate's warned codes (heard through process.nextTick, which Node's warning calls): never heard", read: HEARD("util.deprecate(() => {}, 'carried', 'DURASIM_CARRIED')()"), leave: '', fresh: '0' },
  { name: 'a property added to process.emitWarning (what journal code gets is frozen: the write fails)', read: 'process.emitWarning.carried', leave: "try { process.emitWarning.carried = 'left'; } catch {}", fresh: 'undefined' },
  { name: "a deprecated builtin's warned flag (Buffer() without new, DEP0005): never heard", read: HEARD('Buffer(1)'), leave: '', fresh: '0' },
  // Found by a blind attack set (blind3/): what only an instance of a builtin class, a formatter's frames or diagnostics_channel's registry reach.
  { name: "a property on the prototype of URLSearchParams' iterator (made by Node's own module, named nowhere)", read: "Object.getPrototypeOf(new URLSearchParams('a=1').keys()).carried", leave: "Object.getPrototypeOf(new URLSearchParams('a=1').keys()).carried = 'left';", fresh: 'undefined' },
  { name: "a property on the prototype of a ReadableStream's iterator", read: 'Object.getPrototypeOf(new ReadableStream().values()).carried', leave: "Object.getPrototypeOf(new ReadableStream().values()).carried = 'left';", fresh: 'undefined' },
  { name: "a property on the prototype of V8's stack frames (what Error.prepareStackTrace is handed)", read: 'FRAME_PROTO().carried', leave: "FRAME_PROTO().carried = 'left';", fresh: 'undefined' },
  { name: 'a property on a channel the registry keeps for the thread (dc.channel)', imports: "import dc from 'node:diagnostics_channel';", read: "dc.channel('worker_threads').carried", leave: "dc.channel('worker_threads').carried = 'left';", fresh: 'undefined' },
  // Found attacking the restore's quick look (properties/attacks/pending/own): a change no count and no writable value shows.
  { name: "a read-only, non-enumerable property deleted (process.memoryUsage's name: no key added, no value compared)", read: "Object.hasOwn(process.memoryUsage, 'name')", leave: 'delete process.memoryUsage.name;', fresh: 'true' },
  { name: 'an enumerable key deleted and assigned again with its value (process.release.name: only the keys\' order changed)', read: 'Object.keys(process.release)[0]', leave: 'const v = process.release.name; delete process.release.name; process.release.name = v;', fresh: 'name' },
  { name: 'the last enumerable key deleted and assigned again with its value (keys and order kept: only now writable)', read: "String(Object.getOwnPropertyDescriptor(process.release, Object.keys(process.release).at(-1)).writable)", leave: 'const k = Object.keys(process.release).at(-1); const v = process.release[k]; delete process.release[k]; process.release[k] = v;', fresh: 'false' },
  // Found by a blind attack set (blind4/, f10): objects only a getter hands out, the same every time.
  { name: 'a property on crypto.subtle (a module-level object only a prototype\'s getter hands out)', read: 'globalThis.crypto.subtle.carried', leave: "globalThis.crypto.subtle.carried = 'left';", fresh: 'undefined' },
  // Found by a blind attack set (blind3/, d04): a function a getter hands every instance of a class made only with arguments.
  { name: "a property on the function a queuing strategy's size getter hands every instance (its class made only with arguments)", read: 'new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size.carried', leave: "new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size.carried = 'left';", fresh: 'undefined' },
  { name: "the Buffer pool (a buffer's .buffer shows another incarnation's bytes)", read: "Buffer.from(new Uint8Array(Buffer.from('y').buffer)).toString('latin1').includes('SECRET') ? 'carried' : 'clean'", leave: "globalThis.kept = Buffer.from('SECRET-OF-THE-FIRST-INCARNATION');", fresh: 'clean' },
];

function carrierModule(carrier: Carrier, index: number): string {
  return `import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
${carrier.imports ?? ''}
const ownRequire = createRequire(import.meta.url);
const FRAME_PROTO = () => { const saved = Error.prepareStackTrace; Error.prepareStackTrace = (_e, frames) => frames; try { return Object.getPrototypeOf(new Error('x').stack[0]); } finally { Error.prepareStackTrace = saved; } };
export default {
  name: 'carrier-${index}',
  async run(env) {
    let seen;
    try {
      seen = String(${carrier.read});
    } catch (error) {
      seen = 'threw ' + (error && error.code ? error.code : error && error.message);
    }
    ${carrier.leave}
    await env.fs.appendFile('seen.txt', seen + '\\n');
    await env.fs.appendFile('seen.txt', 'done\\n');
  },
  inspect(disk) {
    const text = disk.readFile('seen.txt');
    return text === undefined ? {} : { seen: { kind: 'operation', history: [], digest: text } };
  },
};
`;
}

/** Killed right after its first line is written, restarted once. */
const scenario = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] }, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'seen.txt', occurrence: 0 }, when: 'after' }] };
const dir = mkdtempSync(join(tmpdir(), 'durasim-carriers-'));
let pool: WorkerPool;

beforeAll(() => {
  pool = new WorkerPool({ workers: 2 });
});

afterAll(() => pool.close());

describe('what an incarnation leaves outside its modules dies with it', () => {
  test.each(CARRIERS.map((carrier, index) => [carrier.name, carrier, index] as const))('%s', async (_name, carrier, index) => {
    const file = join(dir, `carrier-${index}.mjs`);
    writeFileSync(file, carrierModule(carrier, index));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full', modules: 'fresh', then: 'same' });
    const first = outcome.kind === 'simulated' ? outcome : undefined;
    if (!first?.result || !first.again?.result) throw new Error(`the carrier did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
    expect(first.result.escapes).toEqual([]);
    expect(first.result.stats.incarnations).toBe(2);
    const seen = (first.result.final.visible.seen as { digest?: string } | undefined)?.digest;
    // The first incarnation reads what a new process reads; so does the second, after the crash.
    expect(seen).toBe(`${carrier.fresh}\n${carrier.fresh}\ndone\n`);
    expect(first.again.result.traceHash).toBe(first.result.traceHash);
  });
});

describe('what no restart could undo is refused before it happens', () => {
  const simple = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } };
  test.each([
    ['Object.freeze(Array.prototype)', 'Object.freeze'],
    ['Object.seal(process)', 'Object.seal'],
    ['Object.preventExtensions(fs)', 'Object.preventExtensions'],
    ['Reflect.preventExtensions(JSON)', 'Reflect.preventExtensions'],
  ])('%s', async (code, api) => {
    const file = join(dir, `pin-${api}.mjs`);
    writeFileSync(file, carrierModule({ name: code, read: `(${code}, 'pinned')`, leave: '', fresh: '' }, 99));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, simple, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    expect(result?.escapes.map((e) => e.api)).toEqual([api]);
    expect((result?.final.visible.seen as { digest?: string } | undefined)?.digest).toBe(
      `threw Failed to run the journal under simulation: it called ${api}, which would pin an object every simulated process shares (process, a builtin module, a prototype) where no restart could undo it. Freeze or seal objects of your own: under simulation one thread serves every incarnation, and each must start as a new process does.\ndone\n`,
    );
  });

  test.each([
    ['process.emitWarning = () => {}'],
    ["Object.defineProperty(process, 'emitWarning', { value: () => {} })"],
    ["Reflect.defineProperty(process, { toString: () => 'emitWarning' }, { get: () => () => {} })"],
    ['Object.defineProperties(process, { emitWarning: { value: () => {} } })'],
    ["process.__defineGetter__('emitWarning', () => () => {})"],
    ['Object.assign(process, { emitWarning: () => {} })'],
  ])('setting process.emitWarning, which Node calls for its warnings, given once a thread: %s', async (code) => {
    const file = join(dir, `warn-${code.length}-${code.charCodeAt(0)}.mjs`);
    writeFileSync(file, carrierModule({ name: code, read: `(${code}, 'set')`, leave: '', fresh: '' }, 96));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, simple, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    expect(result?.escapes.map((e) => e.api)).toEqual(['process.emitWarning']);
    expect((result?.final.visible.seen as { digest?: string } | undefined)?.digest).toBe(
      "threw Failed to run the journal under simulation: it called process.emitWarning, which Node's own code calls for its warnings, each given once a thread and never again after a restart. Leave process.emitWarning as it is, and log with console.warn: under simulation no warning is shown.\ndone\n",
    );
  });

  test.each([['markAsUntransferable'], ['markAsUncloneable']])('worker_threads.%s of a shared object (a mark V8 keeps where no property shows it) is refused; of its own, as Node', async (name) => {
    const file = join(dir, `mark-${name}.mjs`);
    const read = `[(() => { const wt = ownRequire('node:worker_threads'); if (typeof wt.${name} !== 'function') return 'none'; wt.${name}(new ArrayBuffer(1)); try { wt.${name}(process.nextTick); return 'marked'; } catch (error) { return error.message; } })()].join('')`;
    writeFileSync(file, carrierModule({ name, read, leave: '', fresh: '' }, 94));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, simple, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    const seen = (result?.final.visible.seen as { digest?: string } | undefined)?.digest;
    if (seen === 'none\ndone\n') return; // markAsUncloneable is Node 22.10's and later
    expect(result?.escapes.map((e) => e.api)).toEqual([`worker_threads.${name}`]);
    expect(seen).toMatch(new RegExp(`^Failed to run the journal under simulation: it called worker_threads\\.${name}, which would pin an object every simulated process shares`));
  });

  test('process.emitWarning cannot be deleted in a pool worker, and reads the same in every incarnation', async () => {
    const file = join(dir, 'warn-delete.mjs');
    writeFileSync(file, carrierModule({ name: 'delete', read: "[(() => { try { return String(delete process.emitWarning); } catch (error) { return 'false'; } })(), typeof process.emitWarning, process.emitWarning('mine')].join(' ')", leave: '', fresh: '' }, 95));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    expect(result?.escapes).toEqual([]);
    expect((result?.final.visible.seen as { digest?: string } | undefined)?.digest).toBe('false function \nfalse function \ndone\n');
  });

  test('a watched builtin replaced in the first incarnation only is reported, though the restart put it back', async () => {
    // Array.prototype is watched, not locked (lockIntrinsics.ts): the restore at the second incarnation's start puts it back, and the change is noted before it does.
    const file = join(dir, 'watched-once.mjs');
    const leave = "if ((await env.fs.readFile('mark.txt', 'utf8').catch(() => '')) === '') { await env.fs.writeFile('mark.txt', 'first'); const real = Array.prototype.flatMap; Array.prototype.flatMap = function flatMap(...args) { return real.apply(this, args); }; }";
    writeFileSync(file, carrierModule({ name: 'watched once', read: "String(Array.prototype.flatMap.name)", leave, fresh: '' }, 97));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    expect(result?.stats.incarnations).toBe(2);
    expect((result?.final.visible.seen as { digest?: string } | undefined)?.digest).toBe('flatMap\nflatMap\ndone\n');
    expect(result?.escapes.map((e) => e.api)).toEqual(['replacing Array.prototype.flatMap']);
  });

  test("a journal's own objects freeze as ever, and a property it defines on a shared one is taken back", async () => {
    const file = join(dir, 'pin-own.mjs');
    writeFileSync(file, carrierModule({ name: 'own', read: "[Object.isFrozen(Object.freeze({ a: 1 })), Object.getOwnPropertyDescriptor(Object.defineProperty(process, 'pinned', { value: 1 }), 'pinned').configurable].join(' ')", leave: '', fresh: '' }, 98));
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    const result = outcome.kind === 'simulated' ? outcome.result : undefined;
    expect(result?.escapes).toEqual([]);
    // Defined configurable (by default it would not be): the second incarnation starts without it and defines it again.
    expect((result?.final.visible.seen as { digest?: string } | undefined)?.digest).toBe('true true\ntrue true\ndone\n');
  });
});
