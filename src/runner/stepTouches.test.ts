import { describe, expect, test } from 'vitest';
import { dependency, stepTouches } from './stepTouches.js';

const names = ['post-a', 'post-b', 'config'];

describe('stepTouches', () => {
  test.each([
    ['fetch', 'POST /operations/post-a', [], ['key post-a']],
    ['fetch', 'POST /v1/payouts [post-b]', [], ['key post-b']], // a contract's key outside the path
    ['fetch', 'GET /resources/config', ['#0 GET /resources/config → 200'], ['key config']],
    ['fh.appendFile', 'journal.jsonl "{\\"key\\":\\"post-a\\",\\"state\\":\\"authorized\\"…"', [], ['key post-a', 'file journal.jsonl']],
    ['fh.sync', 'journal.jsonl', [], ['file journal.jsonl']],
    ['fh.sync', '/work/', [], ['file /work']],
    ['fs.open', 'journal.lock.0 w', [], ['file journal.lock.0', 'file /work']], // a create: its folder too
    ['fs.open', 'tmp r', [], ['file tmp']], // a read: no entry changes
    ['fs.link', 'journal.lock.0 → journal.lock', [], ['file journal.lock.0', 'file journal.lock', 'file /work']],
    ['fs.promises.rename', 'tmp/a.part → out/a', [], ['file tmp/a.part', 'file out/a', 'file tmp', 'file out']],
    ['fs.unlinkSync', 'tmp/task-1.post-a.0-0.part', [], ['file tmp/task-1.post-a.0-0.part', 'file tmp']], // post-a inside a longer name is no mention
    ['fh.writeFile', 'notes.md "a → b"', [], ['file notes.md']], // an arrow in the data is no second path
    ['fh.close', 'fd 7', [], []],
    ['store.put', 'task-1/projection', ['#5 worker-0#0 put task-1/projection if absent under lease task-1 token 1 → ok v2'], ['store task-1/projection', 'lease task-1']],
    ['store.list', 'task-1/events/*', ['#1 worker-0#0 list task-1/events/* → 0 keys'], ['store task-1/events/*']],
    ['store.renew', 'lease task-1', ['#3 worker-0#0 renew lease task-1 token 1 (10000ms) → ok token 1 until 10003'], ['lease task-1']],
    ['clock.timeout', '2000ms', [], []],
  ])('%s %s touches what its lines name', (op, detail, after, touches) => {
    expect(stepTouches(op, detail, after, names)).toEqual(touches);
  });
});

describe('dependency', () => {
  test('a pair on the same key is kept, ranked first even when a file is shared too', () => {
    const append = stepTouches('fh.appendFile', 'journal.jsonl "{\\"key\\":\\"post-a\\"}"', [], names);
    const post = stepTouches('fetch', 'POST /operations/post-a', [], names);
    expect(dependency(append, post)).toBe(0);
    expect(dependency(append, stepTouches('fh.appendFile', 'journal.jsonl "{\\"key\\":\\"post-a\\",\\"state\\":\\"succeeded\\"}"', [], names))).toBe(0);
  });

  test('a pair on unrelated keys and files is dropped; on the same file only, it ranks after a key', () => {
    const postA = stepTouches('fetch', 'POST /operations/post-a', [], names);
    const postB = stepTouches('fetch', 'POST /operations/post-b', [], names);
    const notes = stepTouches('fs.readFile', 'notes.md', [], names);
    expect(dependency(postA, postB)).toBeUndefined();
    expect(dependency(postA, notes)).toBeUndefined();
    expect(dependency(stepTouches('fh.appendFile', 'journal.jsonl "{\\"key\\":\\"post-b\\"}"', [], names), stepTouches('fh.sync', 'journal.jsonl', [], names))).toBe(1);
    expect(dependency(stepTouches('fs.link', 'a.tmp → a', [], names), stepTouches('fh.sync', '/work/', [], names))).toBe(1); // a new entry and its folder's fsync
  });

  test('store entries and leases: a listing touches the entries under its prefix; a lease ranks last', () => {
    const put = ['store task-1/events/000003', 'lease task-1'];
    expect(dependency(['store task-1/events/*'], put)).toBe(2);
    expect(dependency(['store task-1/projection', 'lease task-1'], put)).toBe(3);
    expect(dependency(['store task-2/events/*'], ['store task-1/events/000003'])).toBeUndefined();
    expect(dependency([], put)).toBeUndefined();
  });
});
