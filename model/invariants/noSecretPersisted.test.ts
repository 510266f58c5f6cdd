import { describe, expect, test } from 'vitest';
import { run } from './fixtures.js';
import { checkNoSecretPersisted } from './noSecretPersisted.js';

describe('no-secret-persisted', () => {
  test('fires once per place the token landed: a file, a file name, a store value, a store key', () => {
    const violations = checkNoSecretPersisted(run({
      secretSightings: [
        { seq: 17, by: 'worker-0#0', where: 'disk', name: 'journal.jsonl' },
        { seq: 19, by: 'worker-0#0', where: 'disk', name: 'journal.jsonl' },
        { seq: 21, by: 'worker-0#1', where: 'disk', name: '(a file name)' },
        { seq: 30, by: 'worker-1#0', where: 'store', name: 'task-1/events/000000' },
        { seq: 31, by: 'worker-1#0', where: 'store', name: '(a key)' },
      ],
    }));
    expect(violations.map((v) => [v.code, v.key, v.step, v.actual])).toEqual([
      ['no-secret-persisted', 'journal.jsonl', 17, 'worker-0#0 wrote it to the file journal.jsonl'],
      ['no-secret-persisted', '(a file name)', 21, 'worker-0#1 wrote it to the disk, as a file name'],
      ['no-secret-persisted', 'task-1/events/000000', 30, 'worker-1#0 wrote it to the store, under task-1/events/000000'],
      ['no-secret-persisted', '(a key)', 31, 'worker-1#0 wrote it to the store, as a key'],
    ]);
    expect(violations[0]?.expected).toBe("the task's access token kept in memory and sent only in the authorization header");
  });

  test('stays quiet when the token landed nowhere, and when the task carries none', () => {
    expect(checkNoSecretPersisted(run({ secretSightings: [] }))).toEqual([]);
    expect(checkNoSecretPersisted(run())).toEqual([]);
  });
});
