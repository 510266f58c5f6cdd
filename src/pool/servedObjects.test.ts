/**
 * What durasim hands a journal when it serves Node's APIs (a FileHandle, a Dir, a timer, a
 * MessagePort, a BroadcastChannel, an http ClientRequest) holds nothing of durasim's world. Each
 * was a class whose serving context was an own property: a journal that read `handle.ctx.world.disk`
 * held the simulated disk itself, and one that made every write durable as it landed was judged
 * clean with the no-fsync bug (src/cli/trust.test.ts). A probe journal, run in the worker pool as
 * `durasim check` runs it, walks everything it can reach from each object without calling a getter
 * (own data properties, accessors' functions, prototypes, a Map's or Set's members) and reports any
 * object that answers as the world, its disk, its clock or a process does, and any prototype on its
 * chain that is neither Node's nor frozen (durasim's served classes and memfs's Stats are: what a
 * journal changes there would change how durasim serves it, or outlive a crash).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

const PROBE = `import { open, opendir } from 'node:fs/promises';
import { MessageChannel, BroadcastChannel } from 'node:worker_threads';
import http from 'node:http';
import { types } from 'node:util';
import { EventEmitter } from 'node:events';
import { Readable, Stream } from 'node:stream';
import { stat } from 'node:fs/promises';
// Node's and JavaScript's own prototypes are the lock's and the restore's; every other one on a served object's chain is durasim's.
const NODES = new Set([Object.prototype, EventEmitter.prototype, Readable.prototype, Stream.prototype, Stream.Stream.prototype, Response.prototype]);
function unfrozen(root, name, found) {
  for (let proto = Reflect.getPrototypeOf(root), path = name + '.__proto__'; proto !== null && !NODES.has(proto); proto = Reflect.getPrototypeOf(proto), path += '.__proto__') {
    const name = (proto.constructor?.name ?? '?') + '.prototype';
    if (!Object.isFrozen(proto)) found.push(path + ' (' + name + ') is not frozen');
    // Its methods and accessors too: a property left on one outlives a crash as one on the prototype does.
    for (const key of Reflect.ownKeys(proto)) {
      const d = Reflect.getOwnPropertyDescriptor(proto, key);
      for (const fn of [d.value, d.get, d.set]) if (typeof fn === 'function' && fn !== proto.constructor && !Object.isFrozen(fn)) found.push(name + '.' + String(key) + ' is not frozen');
    }
  }
}
// Methods only durasim's world, its disk, its clock, its scheduler or a simulated process answer to.
const MACHINERY = ['syncStep', 'procTimer', 'handleWrite', 'handleSync', 'durableView', 'crash', 'asTurnOf', 'uncaught', 'notePayload', 'cancel', 'record'];
const builtins = new Set([Object.prototype, Function.prototype, Array.prototype, Map.prototype, Set.prototype, Promise.prototype, Error.prototype]);
function walk(root, name, found) {
  const seen = new Set();
  const queue = [[root, name, 0]];
  for (let at = 0; at < queue.length && seen.size < 20000; at++) {
    const [value, path, depth] = queue[at];
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value) || builtins.has(value) || depth > 8) continue;
    seen.add(value);
    let keys;
    try { keys = Reflect.ownKeys(value); } catch { continue; }
    const hits = keys.filter((key) => MACHINERY.includes(key) && path.split('.').length > 1 && !/^(timer|channel|port)[12]?\\.(__proto__\\.)*cancel$/.test(path + '.' + String(key)));
    if (hits.length > 0) found.push(path + ' answers to ' + hits.map(String).join(', '));
    for (const key of keys) {
      let d;
      try { d = Reflect.getOwnPropertyDescriptor(value, key); } catch { continue; }
      if (!d) continue;
      if ('value' in d) queue.push([d.value, path + '.' + String(key), depth + 1]);
      else { queue.push([d.get, path + '.' + String(key) + '(get)', depth + 1]); queue.push([d.set, path + '.' + String(key) + '(set)', depth + 1]); }
    }
    if (types.isMap(value)) for (const [k, v] of Map.prototype.entries.call(value)) { queue.push([k, path + '(key)', depth + 1]); queue.push([v, path + '(value)', depth + 1]); }
    if (types.isSet(value)) for (const v of Set.prototype.values.call(value)) queue.push([v, path + '(member)', depth + 1]);
    queue.push([Reflect.getPrototypeOf(value), path + '.__proto__', depth + 1]);
  }
}
export default {
  name: 'served-objects',
  async run(env) {
    const found = [];
    const handle = await open('/work/probe.bin', 'w');
    walk(handle, 'handle', found);
    unfrozen(handle, 'handle', found);
    await handle.close();
    const dir = await opendir('/work');
    walk(dir, 'dir', found);
    unfrozen(dir, 'dir', found);
    await dir.close();
    const timer = setTimeout(() => {}, 1000);
    walk(timer, 'timer', found);
    unfrozen(timer, 'timer', found);
    clearTimeout(timer);
    const { port1, port2 } = new MessageChannel();
    walk(port1, 'port1', found);
    unfrozen(port1, 'port1', found);
    port1.close();
    const channel = new BroadcastChannel('probe');
    walk(channel, 'channel', found);
    unfrozen(channel, 'channel', found);
    channel.close();
    const request = http.request('http://localhost:1/none');
    walk(request, 'request', found);
    unfrozen(request, 'request', found);
    request.on('error', () => {});
    request.destroy();
    void port2;
    const response = await env.fetch('http://service.durasim/none');
    walk(response, 'response', found);
    unfrozen(response, 'response', found);
    const stats = await stat('/work');
    walk(stats, 'stats', found);
    unfrozen(stats, 'stats', found);
    await env.fs.writeFile('found.txt', found.length === 0 ? 'nothing' : found.slice(0, 20).join('\\n'));
  },
  inspect(disk) {
    const text = disk.readFile('found.txt');
    return text === undefined ? {} : { found: { kind: 'operation', history: [], digest: text } };
  },
};
`;

const dir = mkdtempSync(join(tmpdir(), 'durasim-served-objects-'));
let pool: WorkerPool;
beforeAll(() => {
  pool = new WorkerPool({ workers: 1 });
});
afterAll(() => pool.close());

test("nothing a journal is handed when durasim serves Node's APIs reaches durasim's world, and its prototypes are frozen", async () => {
  const file = join(dir, 'probe.mjs');
  writeFileSync(file, PROBE);
  const loaded = await pool.load(journalRefOf(file));
  const outcome = await pool.run(loaded.journalId, { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } }, { detail: 'full' });
  const result = outcome.kind === 'simulated' ? outcome.result : undefined;
  if (!result) throw new Error(`the probe did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
  expect(result.escapes).toEqual([]);
  expect((result.final.visible.found as { digest?: string } | undefined)?.digest, JSON.stringify(result.exits).slice(0, 600)).toBe('nothing');
});
