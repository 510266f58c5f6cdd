/**
 * A journal for a server, on @node-idempotency/core 1, used as its README says: every request (a
 * call of run() with the task) goes through `await idempotency.onRequest(req)` before the work and
 * `await idempotency.onResponse(req, res)` after it, with the README's `MemoryStorageAdapter`. A
 * duplicate that comes while the first is under way is refused ("A request is outstanding for this
 * Idempotency-Key"), one that comes after gets the stored response. The journal's own state is
 * written the way that survives a power loss (temp file, fsync, rename, folder fsync), so what is
 * judged here is the middleware: one instance per process, its store in that process's memory.
 */
import { Idempotency } from '@node-idempotency/core';
import { MemoryStorageAdapter } from '@node-idempotency/storage-adapter-memory';
import { readFile } from 'node:fs/promises';
import type { JournalAdapter } from 'durasim';
import { stateInFile, stateJournal, syncFolder, unlessMissing, writeDurably, type State } from '../stateJournal.js';

const FILE = 'state.json';
const idempotency = new Idempotency(new MemoryStorageAdapter());

const work = stateJournal(
  'node-idempotency',
  () => ({
    load: async () => {
      const state = await unlessMissing(async () => JSON.parse(await readFile(FILE, 'utf8')) as State);
      await syncFolder();
      return state;
    },
    save: (state) => writeDurably(FILE, JSON.stringify(state)),
  }),
  (disk) => stateInFile(disk, FILE),
  undefined,
  'as they come', // the middleware keeps two calls of one task apart, or nothing does
);

const journal: JournalAdapter = {
  name: 'node-idempotency',
  async run(env, task) {
    const request = { method: 'POST', path: '/tasks', headers: { 'idempotency-key': task.id }, body: { operations: task.operations } };
    const stored = await idempotency.onRequest(request); // throws for a duplicate while the first is under way
    if (stored) return; // done before: the stored response is the answer
    await work.run(env, task);
    await idempotency.onResponse(request, { body: { done: true }, additional: { status: 200 } });
  },
  inspect: work.inspect,
};

export default journal;
