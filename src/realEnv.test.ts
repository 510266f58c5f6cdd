import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VirtualClock } from '../simulator/world/clock.js';
import { DEFAULT_SERVICE } from '../simulator/scenario/scenario.js';
import { ServiceCore } from '../simulator/service/service.js';
import { serviceHandlers } from '../simulator/service/serviceHandlers.js';
import { referenceJournal } from './journals/reference.js';
import { realEnv } from './realEnv.js';

const url = 'http://service.test';
const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: { config: 'v1' } }, [], new VirtualClock());
const server = setupServer(...serviceHandlers(core, url));
let dir = '';

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  dir = await mkdtemp(join(tmpdir(), 'durasim-real-'));
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('realEnv', () => {
  test('the reference journal runs unchanged on real files and the global fetch (fake service mounted with msw)', async () => {
    await writeFile(join(dir, 'notes.md'), '# Notes\n');
    const task = {
      id: 'real',
      operations: [
        { kind: 'publish' as const, key: 'a', body: 'artifact' },
        { kind: 'lookup' as const, key: 'l', resource: 'config' },
        { kind: 'edit' as const, key: 'e', path: 'notes.md', append: 'added\n' },
      ],
      service: { url, query: true, idempotentReplay: true },
    };
    await referenceJournal.run(realEnv({ dir }), task);
    await referenceJournal.run(realEnv({ dir, incarnation: 1 }), task);
    expect(core.effects.map((e) => e.key)).toEqual(['a']);
    expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('# Notes\nadded\n');
    const log = await readFile(join(dir, 'journal.jsonl'), 'utf8');
    const records = referenceJournal.inspect({ dir, readFile: (path) => (path === 'journal.jsonl' ? log : undefined), readdir: () => [] });
    expect(records).toMatchObject({
      a: { kind: 'operation', history: ['authorized', 'dispatched', 'succeeded'], receipt: 'rcpt-a-1' },
      l: { kind: 'operation', history: ['authorized', 'dispatched', 'succeeded'], receipt: 'v1' },
      e: { kind: 'file', path: 'notes.md', history: ['read', 'applied'], preserved: [] },
    });
  });
});
