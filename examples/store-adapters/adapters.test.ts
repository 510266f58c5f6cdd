/** The Redis-like and DynamoDB-like adapters behave as their originals do, inside the simulated world (virtual time for PX). */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from 'durasim';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { ConditionalCheckFailedException, dynamoLike } from './dynamoLike.js';
import { redisLike } from './redisLike.js';

const scenario = parseScenario({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [] } });

/** Runs `body` as a journal's run and returns what it noted. */
async function inWorld(body: (env: Parameters<JournalAdapter['run']>[0], note: (line: unknown) => void) => Promise<void>): Promise<unknown[]> {
  const notes: unknown[] = [];
  const journal: JournalAdapter = { name: 'adapter-probe', run: (env) => body(env, (line) => notes.push(line)), inspect: () => ({}) };
  const result = await simulate(journal, scenario);
  expect(result.outcome.kind).toBe('completed');
  return notes;
}

describe('redisLike', () => {
  test('SET NX PX is a lock that only one holder gets, that expires in virtual time, and that only its owner unlocks', async () => {
    const notes = await inWorld(async (env, note) => {
      const redis = redisLike(env.store);
      note(await redis.set('lock:post-a', 'worker-0', { nx: true, px: 5000 }));
      note(await redis.set('lock:post-a', 'worker-1', { nx: true, px: 5000 }));
      note(await redis.delIfEquals('lock:post-a', 'worker-1'));
      await env.clock.sleep(5000);
      note(await redis.get('lock:post-a'));
      note(await redis.set('lock:post-a', 'worker-1', { nx: true, px: 5000 }));
      note(await redis.set('lock:post-a', 'worker-2', { xx: true }));
      note(await redis.delIfEquals('lock:post-a', 'worker-2'));
      note(await redis.del('lock:post-a'));
    });
    expect(notes).toEqual(['OK', null, 0, null, 'OK', 'OK', 1, 0]);
  });
});

describe('dynamoLike', () => {
  test('attribute_not_exists and optimistic locking throw ConditionalCheckFailedException as the SDK does', async () => {
    const notes = await inWorld(async (env, note) => {
      const table = dynamoLike(env.store);
      const first = await table.putItem('task-1#checkpoint', { node: 0 }, 'attribute_not_exists(pk)');
      note(first.data);
      await table.putItem('task-1#checkpoint', { node: 1 }, 'attribute_not_exists(pk)').catch((e: Error) => note(e instanceof ConditionalCheckFailedException));
      const advanced = await table.putItem('task-1#checkpoint', { node: 1 }, { version: first.version });
      await table.putItem('task-1#checkpoint', { node: 2 }, { version: first.version }).catch((e: Error) => note(e.name));
      note((await table.getItem('task-1#checkpoint'))?.data);
      note((await table.query('task-1#')).map((i) => i.version === advanced.version));
    });
    expect(notes).toEqual([{ node: 0 }, true, 'ConditionalCheckFailedException', { node: 1 }, [true]]);
  });
});
